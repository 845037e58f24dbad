import * as Data from "effect/Data"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { AdapterId, ChannelId, ServiceId, Tag } from "../../domain/Identifier.ts"
import { type Kind, kindValueType } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import { formatPath, type InputPath } from "../../vocabulary/common/InvalidInput.ts"
import { parseJson } from "../../vocabulary/common/JsonText.ts"
import { BareKindJson as KindJson } from "../../vocabulary/common/KindNameJson.ts"
import { ValueInputJson, ValueOrNullJson } from "../../vocabulary/common/ValueJson.ts"
import { describeIssue, parseOptions } from "../../vocabulary/common/WireIssue.ts"
import { readHomeJson, readHomeParts } from "./HomeFileRead.ts"
import { homeFileParts } from "./HomeFileText.ts"

/**
 * The home file of the simulator (docs/simulator.md): a public contract. Its JSON is described by the
 * pure Schema `HomeFileJson`, the contract; a file is read into the `Home` below in one pass of plain
 * code that accepts what the schema does (HomeFileRead.ts), and the schema explains a refusal. Then it is
 * checked for what only the whole home says (a value that its kind cannot carry, ids used twice,
 * `drives` that resolve). Values and kinds are the wire's own shapes (values as in docs/reference.md
 * §2, kinds as vocabulary B writes them), so that a home file and a request body mean the same thing
 * by the same JSON.
 */

export const defaultSimulatorAdapter = "simulator@gateway.local"
const defaultAdapter = AdapterId.make(defaultSimulatorAdapter)

const Tags = Schema.optionalKey(Schema.Array(Tag))
const Milliseconds = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))

const CycleJson = Schema.Struct({
  /** At least a millisecond: a zero period would make the getter spin. */
  every_ms: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(1)),
  values: Schema.Array(ValueInputJson.wire).check(Schema.isMinLength(1, { message: "must list at least one value" }))
})

const GetterJson = Schema.Struct({
  id: ChannelId,
  kind: KindJson.wire,
  tags: Tags,
  /** The initial value; `null` or no `value` at all means "no value yet", as `null` does in results. */
  value: Schema.optionalKey(ValueOrNullJson.wire),
  cycle: Schema.optionalKey(CycleJson),
  watch: Schema.optionalKey(Schema.Literal("thresholds-only"))
})

const SetterJson = Schema.Struct({
  id: ChannelId,
  kind: KindJson.wire,
  tags: Tags,
  /** A getter of the same home whose value becomes what is written here. */
  drives: Schema.optionalKey(ChannelId)
})

const ServiceJson = Schema.Struct({
  id: ServiceId,
  tags: Tags,
  properties: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  latency_ms: Schema.optionalKey(Milliseconds),
  fail: Schema.optionalKey(Schema.Literals(["error", "timeout"])),
  getters: Schema.optionalKey(Schema.Array(GetterJson)),
  setters: Schema.optionalKey(Schema.Array(SetterJson))
})

export const HomeFileJson = Schema.Struct({
  adapter: Schema.optionalKey(AdapterId),
  services: Schema.Array(ServiceJson)
})

export interface Cycle {
  readonly every_ms: number
  readonly values: ReadonlyArray<Value>
}

export interface SimulatedGetter {
  readonly id: ChannelId
  readonly kind: Kind
  readonly tags: ReadonlyArray<Tag>
  readonly value: Option.Option<Value>
  readonly cycle?: Cycle
  readonly watch?: "thresholds-only"
}

export interface SimulatedSetter {
  readonly id: ChannelId
  readonly kind: Kind
  readonly tags: ReadonlyArray<Tag>
  readonly drives?: ChannelId
}

export interface SimulatedService {
  readonly id: ServiceId
  readonly tags: ReadonlyArray<Tag>
  readonly properties: Readonly<Record<string, string>>
  readonly latency_ms: number
  readonly fail?: "error" | "timeout"
  readonly getters: ReadonlyArray<SimulatedGetter>
  readonly setters: ReadonlyArray<SimulatedSetter>
}

/** A home as the simulator reads it: every default filled in, kinds and values read. */
export interface Home {
  readonly adapter: AdapterId
  readonly services: ReadonlyArray<SimulatedService>
}

const kindName = (kind: Kind): string =>
  kind._tag === "Builtin" ? kind.name : `${kind.vendor}/${kind.adapter}/${kind.kind}`

/** Why `value` cannot be held by a channel of `kind`, if it cannot. */
const misfit = (kind: Kind, value: Value): string | undefined => {
  const expected = kindValueType(kind)
  return value._tag === expected ? undefined : `kind ${kindName(kind)} carries ${expected} values, got a ${value._tag}`
}

/** A problem of a home whose JSON is well formed: where it is, and what it is. */
interface Problem {
  readonly path: InputPath
  readonly reason: string
}

/** The first getter whose initial value or cycle holds a value its kind cannot carry. */
const firstMisfit = (home: Home): Problem | undefined => {
  // Indexed loops, no path made until a problem is found: a large home has many getters.
  for (let s = 0; s < home.services.length; s++) {
    const getters = (home.services[s] as SimulatedService).getters
    for (let g = 0; g < getters.length; g++) {
      const getter = getters[g] as SimulatedGetter
      if (Option.isSome(getter.value)) {
        const reason = misfit(getter.kind, getter.value.value)
        if (reason !== undefined) return { path: ["services", s, "getters", g, "value"], reason }
      }
      const cycle = getter.cycle?.values ?? []
      for (let i = 0; i < cycle.length; i++) {
        const reason = misfit(getter.kind, cycle[i] as Value)
        if (reason !== undefined) return { path: ["services", s, "getters", g, "cycle", "values", i], reason }
      }
    }
  }
  return undefined
}

/** Where a channel sits in the file: the place of its id's first use in `service`, the `s`th. */
const channelPlace = (service: SimulatedService, s: number, id: string): InputPath => {
  const getter = service.getters.findIndex((channel) => channel.id === id)
  return getter >= 0 ? ["services", s, "getters", getter] : ["services", s, "setters", service.setters.findIndex((channel) => channel.id === id)]
}

/** A channel id used again at `path`, with the place of its first use: found by walking the home again, once. */
const repeatedChannel = (home: Home, id: string, path: InputPath): Problem => {
  const s = home.services.findIndex((service) => [...service.getters, ...service.setters].some((channel) => channel.id === id))
  const at = formatPath(channelPlace(home.services[s] as SimulatedService, s, id), "")
  return { path, reason: `channel id ${JSON.stringify(id)} is also used at ${at}` }
}

/**
 * The first id used again (services among services, channels among all channels), in the file's
 * order, with the place of its first use. Only the ids are kept: the place of the first use is looked for
 * once one comes again, so that a large home has no path nor owner kept per channel.
 */
const firstRepeatedId = (home: Home): Problem | undefined => {
  const services = new Map<string, number>()
  const channels = new Set<string>()
  for (let s = 0; s < home.services.length; s++) {
    const service = home.services[s] as SimulatedService
    const first = services.get(service.id)
    if (first !== undefined) {
      return { path: ["services", s, "id"], reason: `service id ${JSON.stringify(service.id)} is also used at ${formatPath(["services", first], "")}` }
    }
    services.set(service.id, s)
    for (const mechanism of ["getters", "setters"] as const) {
      const list: ReadonlyArray<SimulatedGetter | SimulatedSetter> = service[mechanism]
      for (let c = 0; c < list.length; c++) {
        const channel = list[c] as SimulatedGetter | SimulatedSetter
        // One step of the set per channel: an id seen before leaves its size as it was.
        const known = channels.size
        channels.add(channel.id)
        if (channels.size === known) return repeatedChannel(home, channel.id, ["services", s, mechanism, c, "id"])
      }
    }
  }
  return undefined
}

/** The first setter whose `drives` names no getter of the home, or one of another value type. */
const firstUnresolvedDrive = (home: Home): Problem | undefined => {
  // Most homes drive nothing: then no map of their getters is made.
  if (!home.services.some((service) => service.setters.some((setter) => setter.drives !== undefined))) return undefined
  const getters = new Map<string, SimulatedGetter>()
  for (const service of home.services) for (const getter of service.getters) getters.set(getter.id, getter)
  for (const [s, service] of home.services.entries()) {
    for (const [c, setter] of service.setters.entries()) {
      if (setter.drives === undefined) continue
      const path = ["services", s, "setters", c, "drives"]
      const driven = getters.get(setter.drives)
      if (driven === undefined) return { path, reason: `no getter ${JSON.stringify(setter.drives)} in this home` }
      if (kindValueType(driven.kind) !== kindValueType(setter.kind)) {
        return {
          path,
          reason: `getter ${JSON.stringify(setter.drives)} carries ${kindValueType(driven.kind)} values but this setter carries ${kindValueType(setter.kind)}`
        }
      }
    }
  }
  return undefined
}

/**
 * A home file the simulator cannot use. The message names the file and the place inside it, e.g.
 * `home.json: services[1].getters[0].kind: unknown kind "Toaster" (…)`.
 */
export class InvalidHomeFile extends Data.TaggedError("InvalidHomeFile")<{
  /** The file, or what stands for it (the built-in demo home). */
  readonly source: string
  readonly path: InputPath
  readonly reason: string
}> {
  override get message(): string {
    const where = formatPath(this.path, "")
    return where === "" ? `${this.source}: ${this.reason}` : `${this.source}: ${where}: ${this.reason}`
  }
}

const checkHomeFile = Schema.decodeUnknownResult(HomeFileJson, parseOptions)

/** Where and why `HomeFileJson` refuses what the plain reading refused. */
const refusal = (json: unknown, source: string): InvalidHomeFile => {
  const checked = checkHomeFile(json)
  // The schema accepting it would be a fault of the reading (HomeFileRead.ts), which its property test rules out.
  const { path, reason } = Result.isFailure(checked) ? describeIssue(checked.failure.issue, "path") : { path: [], reason: "not a home file" }
  return new InvalidHomeFile({ source, path, reason })
}

/** A home read from its file, checked for what only the whole home says; the first problem is the answer. */
const checkedHome = (home: Home, source: string): Result.Result<Home, InvalidHomeFile> => {
  const problem = firstMisfit(home) ?? firstRepeatedId(home) ?? firstUnresolvedDrive(home)
  return problem === undefined ? Result.succeed(home) : Result.fail(new InvalidHomeFile({ source, ...problem }))
}

/** Reads a parsed home file; the first problem is the answer, named at its place in the file. */
export const decodeHome = (json: unknown, source: string): Result.Result<Home, InvalidHomeFile> => {
  const home = readHomeJson(json, defaultAdapter)
  return home === undefined ? Result.fail(refusal(json, source)) : checkedHome(home, source)
}

/** Reads the text of a home file. */
export const parseHome = (text: string, source: string): Result.Result<Home, InvalidHomeFile> =>
  Result.flatMap(
    Result.mapError(parseJson(text), (reason) =>
      new InvalidHomeFile({ source, path: [], reason: `not valid JSON: ${reason}` })),
    (json) => decodeHome(json, source)
  )

/**
 * Reads a home file's bytes, as `parseHome` reads their text (UTF-8, a byte order mark left out, as
 * `FileSystem.readFileString` decodes it). A file of the plain shape is read a service at a time
 * (HomeFileText.ts); any other, and one whose reading refuses it, is decoded and parsed whole, and
 * read again, which explains the refusal.
 */
export const parseHomeFile = (bytes: Uint8Array, source: string): Result.Result<Home, InvalidHomeFile> => {
  const parts = homeFileParts(bytes)
  const home = parts === undefined ? undefined : readHomeParts(parts, defaultAdapter)
  return home === undefined ? parseHome(new TextDecoder().decode(bytes), source) : checkedHome(home, source)
}
