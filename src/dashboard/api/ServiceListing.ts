import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { ChannelView, Kind, ServiceView } from "../../client/index.ts"
import { ChannelId, normalizeTags, ServiceId, Tag } from "../../domain/Identifier.ts"
import { byId, inOrder } from "../../domain/ListOrder.ts"
import { BareKindJson } from "../../vocabulary/common/KindNameJson.ts"
import { describeJson, isJsonObject, type JsonObject } from "../../vocabulary/common/DescribeJson.ts"
import { type InputPath, InvalidInput } from "../../vocabulary/common/InvalidInput.ts"
import { decode } from "../../vocabulary/common/WireIssue.ts"
import { expectedGot } from "../../vocabulary/common/WireSchema.ts"

/**
 * Vocabulary B's listing of services (`GET /api/v1/services`, docs/reference.md §5) read for the
 * dashboard's pages: only the fields they use, each checked as the model says it. The client reads the
 * whole listing with the route's wire schema (every field, every timestamp), which on a home of a
 * thousand devices took the page most of a second; this reads the same listing in a small part of
 * that. A malformed listing is refused all the same, with its first problem and where it is
 * (`answer[3].getters[2].kind: unknown kind "Toaster" …`); fields the pages do not use (a channel's
 * service, adapter, `updated`, `last_seen`) are not read.
 */

/** A channel as the pages show it: what the client's `ChannelView` says of it that they use. */
export type DeviceChannel = Pick<ChannelView, "id" | "mechanism" | "kind" | "tags">

/** A device as the pages show it: what the client's `ServiceView` says of it that they use. */
export interface Device extends Pick<ServiceView, "id" | "tags" | "properties"> {
  readonly getters: ReadonlyArray<DeviceChannel>
  readonly setters: ReadonlyArray<DeviceChannel>
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

/** A list of tags, each read once per reading (a home repeats the same few), sorted as the model keeps them. */
const tagsAt = (reading: Reading, json: unknown, place: Place): ReadonlyArray<Tag> | undefined => {
  if (!Array.isArray(json)) return refuse(reading, place, expectedGot("an array of strings", json))
  const tags: Array<Tag> = []
  for (let i = 0; i < json.length; i++) {
    const item: unknown = json[i]
    if (typeof item !== "string") return refuse(reading, at(place, i), expectedGot("a tag (a string)", item))
    let tag = reading.tags.get(item)
    if (tag === undefined) {
      if (!isTag(item)) return refuse(reading, at(place, i), `not a tag: ${describeJson(item)} (1 to 256 characters, no control characters)`)
      tag = item
      reading.tags.set(item, tag)
    }
    tags.push(tag)
  }
  return normalizeTags(tags)
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

const channelAt = (reading: Reading, json: unknown, place: Place, mechanism: "getter" | "setter"): DeviceChannel | undefined => {
  const channel = objectAt(reading, json, place, "a channel")
  if (channel === undefined) return undefined
  const id = field(reading, channel, place, "id")
  if (typeof id !== "string" || !isChannelId(id)) return refuse(reading, at(place, "id"), expectedGot("a channel id (a string)", id))
  if (field(reading, channel, place, "mechanism") !== mechanism) return refuse(reading, at(place, "mechanism"), `expected "${mechanism}" here`)
  const kind = kindAt(reading, field(reading, channel, place, "kind"), at(place, "kind"))
  const tags = tagsAt(reading, field(reading, channel, place, "tags"), at(place, "tags"))
  return kind === undefined || tags === undefined ? undefined : { id, mechanism, kind, tags }
}

const channelsAt = (reading: Reading, json: unknown, place: Place, mechanism: "getter" | "setter"): ReadonlyArray<DeviceChannel> | undefined => {
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

const deviceAt = (reading: Reading, json: unknown, place: Place): Device | undefined => {
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

/** The devices of a listing of services, or the listing's first problem, its place under `answer`. */
export const readServiceListing = (json: unknown): Result.Result<ReadonlyArray<Device>, InvalidInput> => {
  const reading: Reading = { problem: undefined, tags: new Map(), kinds: new Map() }
  const answer: Place = { parent: undefined, key: "answer" }
  const devices = listAt(reading, json, answer, "an array of services", (item, place) => deviceAt(reading, item, place))
  if (devices !== undefined) return Result.succeed(devices)
  return Result.fail(reading.problem ?? new InvalidInput({ path: pathOf(answer), reason: "not a listing of services" }))
}
