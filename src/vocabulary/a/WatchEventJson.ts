import { Option, Result } from "effect"
import type { WatchEvent } from "../../domain/Watch.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  invalid,
  readChannelId,
  readObjectWithKeys,
  readSingleKey,
  requiredField
} from "../common/JsonInput.ts"
import { decodeValue, encodeValue } from "../common/ValueJson.ts"

/**
 * Watch events in vocabulary A (wire.md §7): `{"Value": {"from": id, "value": V}}`, `{"GetAdded": id}`,
 * `{"GetRemoved": id}`. A has no event for a device that refuses a watch.
 */

/** The events A can say: all but WatchRefused. */
export type WatchEventInA = Exclude<WatchEvent, { readonly _tag: "WatchRefused" }>

const decodeValueEvent = (json: unknown, path: InputPath): Decoded<WatchEventInA> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a Value event", ["from", "value"])
    const from = yield* requiredField(object, "from", path)
    const value = yield* requiredField(object, "value", path)
    return {
      _tag: "ValueChanged",
      channel: yield* readChannelId(from, [...path, "from"]),
      value: yield* decodeValue(value, [...path, "value"])
    } as const
  })

export const decodeWatchEvent = (json: unknown, path: InputPath = []): Decoded<WatchEventInA> =>
  Result.flatMap(readSingleKey(json, path, `an event such as {"GetAdded": "<id>"}`), ([name, payload]) => {
    const at: InputPath = [...path, name]
    switch (name) {
      case "Value":
        return decodeValueEvent(payload, at)
      case "GetAdded":
        return Result.map(readChannelId(payload, at), (channel) => ({ _tag: "ChannelAdded", channel }) as const)
      case "GetRemoved":
        return Result.map(readChannelId(payload, at), (channel) => ({ _tag: "ChannelRemoved", channel }) as const)
      default:
        return invalid(path, `unknown event ${JSON.stringify(name)} (known: Value, GetAdded, GetRemoved)`)
    }
  })

/**
 * `None` means nothing is sent: a refused watch (WatchRefused) has no form in A, whose clients know only
 * the three events above; the channel then simply yields no values. (`{"Error": …}` is not used for it:
 * on the watch socket that answer means the client's frame was malformed.)
 */
export const encodeWatchEvent = (event: WatchEvent): Option.Option<unknown> => {
  switch (event._tag) {
    case "ValueChanged":
      return Option.some({ Value: { from: event.channel, value: encodeValue(event.value) } })
    case "ChannelAdded":
      return Option.some({ GetAdded: event.channel })
    case "ChannelRemoved":
      return Option.some({ GetRemoved: event.channel })
    case "WatchRefused":
      return Option.none()
  }
}
