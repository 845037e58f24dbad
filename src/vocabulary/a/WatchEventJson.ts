import { Option, Schema, SchemaTransformation } from "effect"
import { WatchEvent } from "../../domain/Watch.ts"
import { ChannelIdJson } from "../common/IdentifierJson.ts"
import { ValueJson } from "../common/ValueJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { keyedUnion } from "../common/WireSchema.ts"

/**
 * Watch events in vocabulary A (wire.md §7): `{"Value": {"from": id, "value": V}}`, `{"GetAdded": id}`,
 * `{"GetRemoved": id}`. A has no event for a device that refuses a watch.
 */

/** The events A can say: all but WatchRefused. */
export const WatchEventInA = Schema.Union([WatchEvent.cases.ChannelAdded, WatchEvent.cases.ChannelRemoved, WatchEvent.cases.ValueChanged])
export type WatchEventInA = typeof WatchEventInA.Type

export const WatchEventJson = keyedUnion(
  {
    Value: Schema.Struct({
      Value: Schema.Struct({ from: ChannelIdJson, value: ValueJson }).annotate({ expected: "a Value event" })
    }).pipe(Schema.decodeTo(
      Schema.toType(WatchEvent.cases.ValueChanged),
      SchemaTransformation.transform({
        decode: ({ Value: e }) => ({ _tag: "ValueChanged", channel: e.from, value: e.value }) as const,
        encode: (e) => ({ Value: { from: e.channel, value: e.value } })
      })
    )),
    GetAdded: Schema.Struct({ GetAdded: ChannelIdJson }).pipe(Schema.decodeTo(
      Schema.toType(WatchEvent.cases.ChannelAdded),
      SchemaTransformation.transform({
        decode: (e) => ({ _tag: "ChannelAdded", channel: e.GetAdded }) as const,
        encode: (e) => ({ GetAdded: e.channel })
      })
    )),
    GetRemoved: Schema.Struct({ GetRemoved: ChannelIdJson }).pipe(Schema.decodeTo(
      Schema.toType(WatchEvent.cases.ChannelRemoved),
      SchemaTransformation.transform({
        decode: (e) => ({ _tag: "ChannelRemoved", channel: e.GetRemoved }) as const,
        encode: (e) => ({ GetRemoved: e.channel })
      })
    ))
  },
  `an event such as {"GetAdded": "<id>"}`,
  (name) => `unknown event ${JSON.stringify(name)} (known: Value, GetAdded, GetRemoved)`
)

export const decodeWatchEvent = decodeWith(WatchEventJson)
const encodeEvent = encodeTotal(WatchEventJson)

/**
 * `None` means nothing is sent: a refused watch (WatchRefused) has no form in A, whose clients know only
 * the three events above; the channel then simply yields no values. (`{"Error": …}` is not used for it:
 * on the watch socket that answer means the client's frame was malformed.)
 */
export const encodeWatchEvent = (event: WatchEvent): Option.Option<unknown> =>
  event._tag === "WatchRefused" ? Option.none() : Option.some(encodeEvent(event))
