import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { Channel } from "../../domain/Channel.ts"
import { ChannelId, normalizeTags, ServiceId, Tag } from "../../domain/Identifier.ts"
import type { Kind } from "../../domain/Kind.ts"
import { byId, inOrder } from "../../domain/ListOrder.ts"
import type { Service } from "../../domain/Service.ts"
import { TagsJson } from "../common/IdentifierJson.ts"
import { BareKindJson } from "../common/KindNameJson.ts"
import { isJsonObject, type JsonObject } from "../common/DescribeJson.ts"
import { type InputPath, InvalidInput } from "../common/InvalidInput.ts"
import { decode } from "../common/WireIssue.ts"
import { expectedGot } from "../common/WireSchema.ts"

/**
 * Vocabulary B's listing of services (`GET /api/v1/services`, docs/reference.md §5) read in summary:
 * each service's id, tags and properties, and each channel's id, mechanism, kind and tags, each checked
 * as the model says it (what the dashboard's home page shows). The client reads the whole listing with
 * the route's wire schema (every field, every timestamp), which on a home of a thousand devices took
 * the page most of a second; this reads the same listing in a small part of that. A malformed listing is refused all the same, with its first problem and where it is
 * (`answer[3].getters[2].kind: unknown kind "Toaster" …`); fields the pages do not use (a channel's
 * service, adapter, `updated`, `last_seen`) are not read.
 */

/** A channel in summary: its id, mechanism, kind and tags. */
export type ChannelSummary = Pick<Channel, "id" | "mechanism" | "kind" | "tags">

/**
 * A service in summary, with its channels'. Its properties are an `Option`, as in the client's views
 * (where vocabulary A does not say them), so that what names a service reads both; B always gives them.
 */
export interface ServiceSummary extends Pick<Service, "id" | "tags"> {
  readonly properties: Option.Option<Service["properties"]>
  readonly getters: ReadonlyArray<ChannelSummary>
  readonly setters: ReadonlyArray<ChannelSummary>
}

/** The first problem of a reading, and the leaves it has read already (a home repeats the same few tags and kinds). */
interface Reading {
  problem: InvalidInput | undefined
  readonly tags: Map<string, Tag>
  readonly kinds: Map<string, Kind>
}

/**
 * Where a part is: its parent's place and its key. A place is written out as a path only for a refusal,
 * so that reading ten thousand channels builds no path.
 */
interface Place {
  readonly parent: Place | undefined
  readonly key: PropertyKey
}

const at = (parent: Place, key: PropertyKey): Place => ({ parent, key })

const pathOf = (place: Place): InputPath => {
  const path: Array<PropertyKey> = []
  for (let p: Place | undefined = place; p !== undefined; p = p.parent) path.unshift(p.key)
  return path
}

const refuse = (reading: Reading, place: Place, reason: string): undefined => {
  reading.problem ??= new InvalidInput({ path: pathOf(place), reason })
  return undefined
}

const isServiceId = Schema.is(ServiceId)
const isChannelId = Schema.is(ChannelId)
const isTag = Schema.is(Tag)

/** A field of `json` (at `place`); a missing one is refused. */
const field = (reading: Reading, json: JsonObject, place: Place, name: string): unknown =>
  Object.hasOwn(json, name) ? json[name] : refuse(reading, place, `missing field "${name}"`)

const objectAt = (reading: Reading, json: unknown, place: Place, what: string): JsonObject | undefined =>
  isJsonObject(json) ? json : refuse(reading, place, expectedGot(what, json))

/** Each item of a list read by `read`, or undefined when it is not a list or at the first item that does not read. */
const listAt = <A>(
  reading: Reading,
  json: unknown,
  place: Place,
  what: string,
  read: (item: unknown, place: Place) => A | undefined
): Array<A> | undefined => {
  if (!Array.isArray(json)) return refuse(reading, place, expectedGot(what, json))
  const items: Array<A> = []
  for (let i = 0; i < json.length; i++) {
    const item: A | undefined = read(json[i], at(place, i))
    if (item === undefined) return undefined
    items.push(item)
  }
  return items
}

/**
 * A list of tags, each read once per reading (a home repeats the same few), sorted as the model keeps
 * them. A list that does not read is refused by the wire shape of tags, in its words.
 */
const tagsAt = (reading: Reading, json: unknown, place: Place): ReadonlyArray<Tag> | undefined => {
  if (Array.isArray(json)) {
    const tags: Array<Tag> = []
    for (const item of json) {
      const tag = typeof item === "string" ? reading.tags.get(item) ?? (isTag(item) ? item : undefined) : undefined
      if (tag === undefined) break
      reading.tags.set(tag, tag)
      tags.push(tag)
    }
    if (tags.length === json.length) return normalizeTags(tags)
  }
  const refused = decode(TagsJson, json, pathOf(place))
  reading.problem ??= Result.isFailure(refused) ? refused.failure : new InvalidInput({ path: pathOf(place), reason: "not a list of tags" })
  return undefined
}

/** A kind: its name's reading is kept; an extension's object is read each time, with the wire shape's words. */
const kindAt = (reading: Reading, json: unknown, place: Place): Kind | undefined => {
  const known = typeof json === "string" ? reading.kinds.get(json) : undefined
  if (known !== undefined) return known
  const kind = decode(BareKindJson, json, pathOf(place))
  if (Result.isFailure(kind)) {
    reading.problem ??= kind.failure
    return undefined
  }
  if (typeof json === "string") reading.kinds.set(json, kind.success)
  return kind.success
}

const channelAt = (reading: Reading, json: unknown, place: Place, mechanism: "getter" | "setter"): ChannelSummary | undefined => {
  const channel = objectAt(reading, json, place, "a channel")
  if (channel === undefined) return undefined
  const id = field(reading, channel, place, "id")
  if (typeof id !== "string" || !isChannelId(id)) return refuse(reading, at(place, "id"), expectedGot("a channel id (a string)", id))
  if (field(reading, channel, place, "mechanism") !== mechanism) return refuse(reading, at(place, "mechanism"), `expected "${mechanism}" here`)
  const kind = kindAt(reading, field(reading, channel, place, "kind"), at(place, "kind"))
  const tags = tagsAt(reading, field(reading, channel, place, "tags"), at(place, "tags"))
  return kind === undefined || tags === undefined ? undefined : { id, mechanism, kind, tags }
}

const channelsAt = (reading: Reading, json: unknown, place: Place, mechanism: "getter" | "setter"): ReadonlyArray<ChannelSummary> | undefined => {
  const channels = listAt(reading, json, place, "an array of channels", (item, itemPlace) => channelAt(reading, item, itemPlace, mechanism))
  // In the model's order, whatever order the wire gave (as the client's views are).
  return channels === undefined ? undefined : inOrder(channels, byId)
}

const propertiesAt = (reading: Reading, json: unknown, place: Place): Record<string, string> | undefined => {
  const properties = objectAt(reading, json, place, "an object of properties")
  if (properties === undefined) return undefined
  // Read into a fresh object, so a key `__proto__` stays data.
  const read: Record<string, string> = {}
  for (const [name, value] of Object.entries(properties)) {
    if (typeof value !== "string") return refuse(reading, at(place, name), expectedGot("a string", value))
    Object.defineProperty(read, name, { value, enumerable: true, writable: true, configurable: true })
  }
  return read
}

const deviceAt = (reading: Reading, json: unknown, place: Place): ServiceSummary | undefined => {
  const service = objectAt(reading, json, place, "a service")
  if (service === undefined) return undefined
  const id = field(reading, service, place, "id")
  if (typeof id !== "string" || !isServiceId(id)) return refuse(reading, at(place, "id"), expectedGot("a service id (a string)", id))
  const tags = tagsAt(reading, field(reading, service, place, "tags"), at(place, "tags"))
  const properties = propertiesAt(reading, field(reading, service, place, "properties"), at(place, "properties"))
  const getters = channelsAt(reading, field(reading, service, place, "getters"), at(place, "getters"), "getter")
  const setters = channelsAt(reading, field(reading, service, place, "setters"), at(place, "setters"), "setter")
  if (tags === undefined || properties === undefined || getters === undefined || setters === undefined) return undefined
  return { id, tags, properties: Option.some(properties), getters, setters }
}

/** The services of a listing in summary, or the listing's first problem, its place under `answer`. */
export const readServiceSummaries = (json: unknown): Result.Result<ReadonlyArray<ServiceSummary>, InvalidInput> => {
  const reading: Reading = { problem: undefined, tags: new Map(), kinds: new Map() }
  const answer: Place = { parent: undefined, key: "answer" }
  const devices = listAt(reading, json, answer, "an array of services", (item, place) => deviceAt(reading, item, place))
  if (devices !== undefined) return Result.succeed(devices)
  return Result.fail(reading.problem ?? new InvalidInput({ path: pathOf(answer), reason: "not a listing of services" }))
}
