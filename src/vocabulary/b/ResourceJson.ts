import { Result } from "effect"
import type { Channel } from "../../domain/Channel.ts"
import { AdapterId, type ServiceId } from "../../domain/Identifier.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import type { Service } from "../../domain/Service.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  describeJson,
  identifierReader,
  invalid,
  readArrayOf,
  readChannelId,
  readObject,
  readObjectWithKeys,
  readRequired,
  readServiceId,
  readString,
  readTags
} from "../common/JsonInput.ts"
import { decodeTimestampOrNull, encodeTimestampOrNull } from "../common/TimestampJson.ts"
import { decodeKind, encodeKind } from "./KindJson.ts"

/**
 * Services and channels in vocabulary B (wire.md §5), with exactly the keys listed there (§9).
 * The order of lists is the domain's (sorted by id); the encoders keep it.
 *
 * B has no `push`: a channel read from B has `pushMs` 0 ("any rate").
 */
const channelKeys = ["id", "service", "adapter", "mechanism", "kind", "tags", "updated", "last_seen"]
const serviceKeys = ["id", "adapter", "tags", "properties", "getters", "setters"]

const readAdapterId = identifierReader(AdapterId, "an adapter id (a string)")

const readMechanism = (json: unknown, path: InputPath): Decoded<Mechanism> =>
  json === "getter" || json === "setter"
    ? Result.succeed(json)
    : invalid(path, `expected "getter" or "setter", got ${describeJson(json)}`)

export const decodeChannel = (json: unknown, path: InputPath = []): Decoded<Channel> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a channel", channelKeys)
    return {
      id: yield* readRequired(object, "id", path, readChannelId),
      service: yield* readRequired(object, "service", path, readServiceId),
      adapter: yield* readRequired(object, "adapter", path, readAdapterId),
      mechanism: yield* readRequired(object, "mechanism", path, readMechanism),
      kind: yield* readRequired(object, "kind", path, decodeKind),
      tags: yield* readRequired(object, "tags", path, readTags),
      updated: yield* readRequired(object, "updated", path, decodeTimestampOrNull),
      lastSeen: yield* readRequired(object, "last_seen", path, decodeTimestampOrNull),
      pushMs: 0
    }
  })

export const encodeChannel = (channel: Channel): unknown => ({
  id: channel.id,
  service: channel.service,
  adapter: channel.adapter,
  mechanism: channel.mechanism,
  kind: encodeKind(channel.kind),
  tags: channel.tags,
  updated: encodeTimestampOrNull(channel.updated),
  last_seen: encodeTimestampOrNull(channel.lastSeen)
})

export const encodeChannels = (channels: ReadonlyArray<Channel>): unknown => channels.map(encodeChannel)

export const decodeChannels = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<Channel>> =>
  readArrayOf(json, path, "an array of channels", decodeChannel)

/** What the device says of itself: string values only. Built with `fromEntries` so a key `__proto__` stays data. */
const readProperties = (json: unknown, path: InputPath): Decoded<Readonly<Record<string, string>>> =>
  Result.gen(function*() {
    const object = yield* readObject(json, path, "an object of properties")
    const entries: Array<readonly [string, string]> = []
    for (const key of Object.keys(object)) entries.push([key, yield* readString(object[key], [...path, key])])
    return Object.fromEntries(entries)
  })

/** A service's channels of one mechanism: each must be of that mechanism and name the service. */
const readOwnChannels = (serviceId: ServiceId, mechanism: Mechanism) => (json: unknown, path: InputPath) =>
  readArrayOf(json, path, "an array of channels", (item, at) =>
    Result.flatMap(decodeChannel(item, at), (channel) => {
      if (channel.mechanism !== mechanism) return invalid([...at, "mechanism"], `expected "${mechanism}" here`)
      if (channel.service !== serviceId) {
        return invalid([...at, "service"], `expected the id of the service that holds the channel`)
      }
      return Result.succeed(channel)
    }))

export const decodeService = (json: unknown, path: InputPath = []): Decoded<Service> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a service", serviceKeys)
    const id = yield* readRequired(object, "id", path, readServiceId)
    return {
      id,
      adapter: yield* readRequired(object, "adapter", path, readAdapterId),
      tags: yield* readRequired(object, "tags", path, readTags),
      properties: yield* readRequired(object, "properties", path, readProperties),
      getters: yield* readRequired(object, "getters", path, readOwnChannels(id, "getter")),
      setters: yield* readRequired(object, "setters", path, readOwnChannels(id, "setter"))
    }
  })

export const encodeService = (service: Service): unknown => ({
  id: service.id,
  adapter: service.adapter,
  tags: service.tags,
  properties: service.properties,
  getters: encodeChannels(service.getters),
  setters: encodeChannels(service.setters)
})

export const encodeServices = (services: ReadonlyArray<Service>): unknown => services.map(encodeService)

export const decodeServices = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<Service>> =>
  readArrayOf(json, path, "an array of services", decodeService)
