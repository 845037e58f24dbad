import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { identity } from "effect/Function"
import { WatchEvent } from "../../domain/Watch.ts"
import { ChannelIdJson } from "../common/IdentifierJson.ts"
import { ValueJson } from "../common/ValueJson.ts"
import { keyedForm, keyedUnion } from "../common/WireSchema.ts"
import { fieldsOf, wireRecord } from "../common/WireRecord.ts"
import { plain, wireShape } from "../common/WireShape.ts"

/**
 * Watch events in vocabulary A (docs/reference.md §7): `{"Value": {"from": id, "value": V}}`, `{"GetAdded": id}`,
 * `{"GetRemoved": id}`. A has no event for a device that refuses a watch.
 */
const { cases } = WatchEvent

/** The events A can say: all but WatchRefused. */
export const WatchEventInA = Schema.Union([cases.ChannelAdded, cases.ChannelRemoved, cases.ValueChanged])
export type WatchEventInA = typeof WatchEventInA.Type

const valueChanged = fieldsOf(cases.ValueChanged)

const ValueEventJson = wireRecord(cases.ValueChanged, {
  from: valueChanged.field("channel", ChannelIdJson),
  value: valueChanged.field("value", ValueJson)
}, { constants: { _tag: "ValueChanged" }, annotations: { expected: "a Value event" } })

export const WatchEventJson = wireShape(keyedUnion<WatchEventInA>(
  {
    ValueChanged: keyedForm("Value", ValueEventJson, identity, identity),
    ChannelAdded: keyedForm("GetAdded", plain(ChannelIdJson), (channel) => ({ _tag: "ChannelAdded", channel }) as const, (e) => e.channel),
    ChannelRemoved: keyedForm("GetRemoved", plain(ChannelIdJson), (channel) => ({ _tag: "ChannelRemoved", channel }) as const, (e) => e.channel)
  },
  `an event such as {"GetAdded": "<id>"}`,
  (name) => `unknown event ${JSON.stringify(name)} (known: Value, GetAdded, GetRemoved)`
), WatchEventInA)

/**
 * `None` means nothing is sent: a refused watch (WatchRefused) has no form in A, whose clients know only
 * the three events above; the channel then simply yields no values. (`{"Error": …}` is not used for it:
 * on the watch socket that answer means the client's frame was malformed.)
 */
export const encodeWatchEvent = (event: WatchEvent): Option.Option<unknown> =>
  event._tag === "WatchRefused" ? Option.none() : Option.some(WatchEventJson.write(event))
