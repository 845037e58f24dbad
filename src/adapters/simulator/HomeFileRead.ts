import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { AdapterId, ChannelId, ServiceId, Tag } from "../../domain/Identifier.ts"
import { CONTROL_CHARACTERS, MAX_IDENTIFIER_LENGTH } from "../../domain/Identifier.ts"
import { isBuiltinKindName, type Kind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import { parseJson } from "../../vocabulary/common/JsonText.ts"
import { BareKindJson as KindJson } from "../../vocabulary/common/KindNameJson.ts"
import { ValueInputJson, ValueOrNullJson } from "../../vocabulary/common/ValueJson.ts"
import { parseOptions } from "../../vocabulary/common/WireIssue.ts"
import type { Cycle, Home, SimulatedGetter, SimulatedService, SimulatedSetter } from "./HomeFile.ts"
import type { HomeFileParts } from "./HomeFileText.ts"

/**
 * A home file's JSON read into a `Home` in one pass of plain code: what `HomeFileJson` accepts, and
 * nothing it refuses (test/adapters/homeFileRead.property.test.ts holds the two to each other). Effect's
 * schema compiler hands a struct that refuses unknown fields to its interpreter, which made checking a
 * 100,000-channel home a fifth of the gateway's start; this pass also leaves no checked copy of the file
 * behind. Values and kinds are checked by their wire schemas, once per distinct JSON text: a large home
 * repeats a few, and its channels share what was read of them. A refused file is not explained here:
 * the schema, asked again, says where and why in the words clients know.
 */

/** The reason a file is refused: no more is said here (see above). */
const refused: unique symbol = Symbol("refused")
type Refused = typeof refused

const controlCharacter = new RegExp(`[${CONTROL_CHARACTERS}]`)

type JsonObject = Readonly<Record<string, unknown>>

/** What is read, being filled in (its optional fields set only when the file gives them). */
type Mutable<A> = { -readonly [K in keyof A]: A[K] }

const isObject = (json: unknown): json is JsonObject => typeof json === "object" && json !== null && !Array.isArray(json)

/** Whether `json` has no keys but `allowed`'s. */
const onlyKeys = (json: JsonObject, allowed: ReadonlySet<string>): boolean => {
  for (const key in json) if (!allowed.has(key)) return false
  return true
}

/** An identifier or tag (docs/reference.md §1): as `BoundedText` in domain/Identifier.ts. */
const isBoundedText = (json: unknown): json is string =>
  typeof json === "string" && json.length >= 1 &&
  (json.length <= MAX_IDENTIFIER_LENGTH || [...json].length <= MAX_IDENTIFIER_LENGTH) && !controlCharacter.test(json)

const isNumberAtLeast = (json: unknown, least: number): json is number =>
  typeof json === "number" && Number.isFinite(json) && json >= least

const getterKeys = new Set(["id", "kind", "tags", "value", "cycle", "watch"])
const setterKeys = new Set(["id", "kind", "tags", "drives"])
const serviceKeys = new Set(["id", "tags", "properties", "latency_ms", "fail", "getters", "setters"])
const homeKeys = new Set(["adapter", "services"])
const cycleKeys = new Set(["every_ms", "values"])

const noTags: ReadonlyArray<Tag> = []
const noProperties: Readonly<Record<string, string>> = {}
const none = Option.none()

/**
 * The JSON text of a value or kind, its key among those already read; none for one too deep for
 * `JSON.stringify` (a `Unit`'s payload may nest any depth), which is then read on its own.
 */
const textOf = (json: unknown): string | undefined => {
  try {
    return JSON.stringify(json)
  } catch {
    return undefined
  }
}

/** What `read` makes of `json`, kept in `seen` under its text. */
const readOnce = <A>(seen: Map<string, A>, json: unknown, read: (json: unknown) => A): A => {
  const text = textOf(json)
  if (text === undefined) return read(json)
  let known = seen.get(text)
  if (known === undefined) {
    known = read(json)
    seen.set(text, known)
  }
  return known
}

const sameTags = (a: ReadonlyArray<string>, b: ReadonlyArray<unknown>): boolean => a.length === b.length && a.every((tag, i) => tag === b[i])

/**
 * What one read of a file has seen: the verdicts and readings of value and kind texts, and the tag
 * lists, so that equal ones are read once and shared. Dropped with the read.
 */
class Reading {
  private readonly values = new Map<string, Option.Option<Value> | Refused>()
  private readonly inputs = new Map<string, Value | Refused>()
  private readonly kinds = new Map<string, Kind | Refused>()
  private readonly tagLists = new Map<string, ReadonlyArray<Tag>>()
  private readonly checkValue = Schema.decodeUnknownResult(ValueOrNullJson.wire, parseOptions)
  private readonly checkInput = Schema.decodeUnknownResult(ValueInputJson.wire, parseOptions)
  private readonly checkKind = Schema.decodeUnknownResult(KindJson.wire, parseOptions)

  /** A getter's initial value (`null`: none yet). */
  value(json: unknown): Option.Option<Value> | Refused {
    if (json === null) return none
    return readOnce(this.values, json, (value) => {
      const checked = this.checkValue(value)
      return Result.isSuccess(checked) ? ValueOrNullJson.read(checked.success) : refused
    })
  }

  /** A value of a cycle (`null`: Unit, as a request body may write it). */
  input(json: unknown): Value | Refused {
    return readOnce(this.inputs, json, (value) => {
      const checked = this.checkInput(value)
      return Result.isSuccess(checked) ? ValueInputJson.read(checked.success) : refused
    })
  }

  kind(json: unknown): Kind | Refused {
    // A built-in kind's bare name, the usual case, needs no schema.
    if (typeof json === "string" && isBuiltinKindName(json)) return KindJson.read(json)
    return readOnce(this.kinds, json, (kind) => {
      const checked = this.checkKind(kind)
      return Result.isSuccess(checked) ? KindJson.read(checked.success) : refused
    })
  }

  /** Tags, if the key is there; one list per distinct list of the file. */
  tags(json: unknown): ReadonlyArray<Tag> | Refused {
    if (json === undefined) return noTags
    if (!Array.isArray(json)) return refused
    if (json.length === 0) return noTags
    for (const tag of json) if (typeof tag !== "string") return refused
    // A list the file repeats is found by its tags joined, and equal to one checked, is checked no more
    // (a large home's channels repeat a few lists). A tag holding the joint fails the check below.
    const key = json.join("\u0000")
    const known = this.tagLists.get(key)
    if (known !== undefined && sameTags(known, json)) return known
    for (const tag of json) if (!isBoundedText(tag)) return refused
    // Checked above: each is a Tag.
    const tags = json as ReadonlyArray<Tag>
    this.tagLists.set(key, tags)
    return tags
  }
}

const readCycle = (json: unknown, reading: Reading): Cycle | Refused => {
  if (!isObject(json) || !onlyKeys(json, cycleKeys)) return refused
  const { every_ms, values: list } = json
  if (!isNumberAtLeast(every_ms, 1) || !Array.isArray(list) || list.length === 0) return refused
  const values: Array<Value> = []
  for (const item of list) {
    const value = reading.input(item)
    if (value === refused) return refused
    values.push(value)
  }
  return { every_ms, values }
}

const readGetter = (json: unknown, reading: Reading): SimulatedGetter | Refused => {
  if (!isObject(json) || !onlyKeys(json, getterKeys) || !isBoundedText(json.id)) return refused
  const kind = reading.kind(json.kind)
  const tags = reading.tags(json.tags)
  const value = json.value === undefined ? none : reading.value(json.value)
  const cycle = json.cycle === undefined ? undefined : readCycle(json.cycle, reading)
  const { watch } = json
  if (kind === refused || tags === refused || value === refused || cycle === refused) return refused
  if (watch !== undefined && watch !== "thresholds-only") return refused
  const getter: Mutable<SimulatedGetter> = { id: json.id as ChannelId, kind, tags, value }
  // Set only when given, as the schema reads them: an object spread per channel was a share of a large home's read.
  if (cycle !== undefined) getter.cycle = cycle
  if (watch !== undefined) getter.watch = watch
  return getter
}

const readSetter = (json: unknown, reading: Reading): SimulatedSetter | Refused => {
  if (!isObject(json) || !onlyKeys(json, setterKeys) || !isBoundedText(json.id)) return refused
  const kind = reading.kind(json.kind)
  const tags = reading.tags(json.tags)
  if (kind === refused || tags === refused) return refused
  if (json.drives !== undefined && !isBoundedText(json.drives)) return refused
  const setter: Mutable<SimulatedSetter> = { id: json.id as ChannelId, kind, tags }
  if (json.drives !== undefined) setter.drives = json.drives as ChannelId
  return setter
}

const readProperties = (json: unknown): Readonly<Record<string, string>> | Refused => {
  if (json === undefined) return noProperties
  if (!isObject(json)) return refused
  for (const key in json) if (typeof json[key] !== "string") return refused
  // Checked above: every value is a string.
  return json as Readonly<Record<string, string>>
}

/** Each item of an optional list read by `read`, or `refused` at the first that is. */
const readList = <A>(json: unknown, read: (item: unknown) => A | Refused): ReadonlyArray<A> | Refused => {
  if (json === undefined) return []
  if (!Array.isArray(json)) return refused
  const out: Array<A> = []
  for (const item of json) {
    const read1 = read(item)
    if (read1 === refused) return refused
    out.push(read1)
  }
  return out
}

const readService = (json: unknown, reading: Reading): SimulatedService | Refused => {
  if (!isObject(json) || !onlyKeys(json, serviceKeys) || !isBoundedText(json.id)) return refused
  const { latency_ms, fail } = json
  const tags = reading.tags(json.tags)
  const properties = readProperties(json.properties)
  if (tags === refused || properties === refused) return refused
  if (latency_ms !== undefined && !isNumberAtLeast(latency_ms, 0)) return refused
  if (fail !== undefined && fail !== "error" && fail !== "timeout") return refused
  const getters = readList(json.getters, (item) => readGetter(item, reading))
  const setters = readList(json.setters, (item) => readSetter(item, reading))
  if (getters === refused || setters === refused) return refused
  const service: Mutable<SimulatedService> = { id: json.id as ServiceId, tags, properties, latency_ms: latency_ms ?? 0, getters, setters }
  if (fail !== undefined) service.fail = fail
  return service
}

/** The adapter a home file names, else the default. */
const readAdapter = (json: unknown, defaultAdapter: AdapterId): AdapterId | Refused =>
  json === undefined ? defaultAdapter : isBoundedText(json) ? json as AdapterId : refused

/** The home a home file's JSON describes, every default filled in; `undefined` if `HomeFileJson` refuses it. */
export const readHomeJson = (json: unknown, defaultAdapter: AdapterId): Home | undefined => {
  if (!isObject(json) || !onlyKeys(json, homeKeys)) return undefined
  const adapter = readAdapter(json.adapter, defaultAdapter)
  if (adapter === refused || !Array.isArray(json.services)) return undefined
  const reading = new Reading()
  const services = readList(json.services, (item) => readService(item, reading))
  return services === refused ? undefined : { adapter, services }
}

/**
 * The same, of a home file's parts (HomeFileText.ts): each service decoded, parsed and read in turn, so
 * that its tree of objects dies young. `undefined` if a part is not JSON or `HomeFileJson` refuses what it holds.
 */
export const readHomeParts = (parts: HomeFileParts, defaultAdapter: AdapterId): Home | undefined => {
  const utf8 = new TextDecoder()
  const adapterJson = parts.adapter === undefined ? Result.succeed(undefined) : parseJson(utf8.decode(parts.adapter))
  const adapter = Result.isSuccess(adapterJson) ? readAdapter(adapterJson.success, defaultAdapter) : refused
  if (adapter === refused) return undefined
  const reading = new Reading()
  const services: Array<SimulatedService> = []
  for (const bytes of parts.services) {
    const json = parseJson(utf8.decode(bytes))
    const service = Result.isSuccess(json) ? readService(json.success, reading) : refused
    if (service === refused) return undefined
    services.push(service)
  }
  return { adapter, services }
}
