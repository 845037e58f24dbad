import { Result } from "effect"
import { ChannelId } from "../../domain/Identifier.ts"
import type { WatchEvent } from "../../domain/Watch.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  identifierReader,
  invalid,
  readObjectWithKeys,
  readSingleKey,
  requiredField
} from "../common/JsonInput.ts"
import { decodeValue, encodeValue } from "../common/ValueJson.ts"
import { decodeChannelError, encodeChannelError } from "./ErrorJson.ts"

/**
 * Watch events of vocabulary B (wire.md §7), one per frame: `{"Value": {"from": id, "value": V}}`,
 * `{"GetterAdded": id}`, `{"GetterRemoved": id}`, `{"InitializationError": {"channel": id, "error": E}}`.
 */
const knownEvents = "Value, GetterAdded, GetterRemoved, InitializationError"

const readChannelId = identifierReader(ChannelId, "a getter id (a string)")

export const decodeWatchEvent = (json: unknown, path: InputPath = []): Decoded<WatchEvent> =>
  Result.flatMap(
    readSingleKey(json, path, `an event such as {"GetterAdded": "<id>"}`),
    ([name, payload]): Decoded<WatchEvent> => {
      const at = [...path, name]
      switch (name) {
        case "Value":
          return Result.gen(function*() {
            const object = yield* readObjectWithKeys(payload, at, "a value event", ["from", "value"])
            const channel = yield* readChannelId(yield* requiredField(object, "from", at), [...at, "from"])
            const value = yield* decodeValue(yield* requiredField(object, "value", at), [...at, "value"])
            return { _tag: "ValueChanged", channel, value } as const
          })
        case "GetterAdded":
          return Result.map(readChannelId(payload, at), (channel) => ({ _tag: "ChannelAdded", channel }))
        case "GetterRemoved":
          return Result.map(readChannelId(payload, at), (channel) => ({ _tag: "ChannelRemoved", channel }))
        case "InitializationError":
          return Result.gen(function*() {
            const object = yield* readObjectWithKeys(payload, at, "an initialization error", ["channel", "error"])
            const channel = yield* readChannelId(yield* requiredField(object, "channel", at), [...at, "channel"])
            const error = yield* decodeChannelError(yield* requiredField(object, "error", at), [...at, "error"])
            return { _tag: "WatchRefused", channel, error } as const
          })
        default:
          return invalid(path, `unknown event ${JSON.stringify(name)} (known: ${knownEvents})`)
      }
    }
  )

export const encodeWatchEvent = (event: WatchEvent): unknown => {
  switch (event._tag) {
    case "ValueChanged":
      return { Value: { from: event.channel, value: encodeValue(event.value) } }
    case "ChannelAdded":
      return { GetterAdded: event.channel }
    case "ChannelRemoved":
      return { GetterRemoved: event.channel }
    case "WatchRefused":
      return { InitializationError: { channel: event.channel, error: encodeChannelError(event.error) } }
  }
}
