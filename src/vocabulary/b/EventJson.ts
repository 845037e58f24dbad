import { identity } from "effect/Function"
import { WatchEvent } from "../../domain/Watch.ts"
import { GetterIdJson } from "../common/IdentifierJson.ts"
import { ValueJson } from "../common/ValueJson.ts"
import { keyedForm, keyedUnion } from "../common/WireSchema.ts"
import { fieldsOf, wireRecord } from "../common/WireRecord.ts"
import { plain, wireShape } from "../common/WireShape.ts"
import { ChannelErrorJson } from "./ErrorJson.ts"

/**
 * Watch events of vocabulary B (docs/reference.md §7), one per frame: `{"Value": {"from": id, "value": V}}`,
 * `{"GetterAdded": id}`, `{"GetterRemoved": id}`, `{"InitializationError": {"channel": id, "error": E}}`.
 */
const knownEvents = "Value, GetterAdded, GetterRemoved, InitializationError"
const { cases } = WatchEvent

const valueChanged = fieldsOf(cases.ValueChanged)

const ValueEventJson = wireRecord(cases.ValueChanged, {
  from: valueChanged.field("channel", GetterIdJson),
  value: valueChanged.field("value", ValueJson)
}, { constants: { _tag: "ValueChanged" }, annotations: { expected: "a value event" } })

const watchRefused = fieldsOf(cases.WatchRefused)

const InitializationErrorJson = wireRecord(cases.WatchRefused, {
  channel: watchRefused.field("channel", GetterIdJson),
  error: watchRefused.field("error", ChannelErrorJson)
}, { constants: { _tag: "WatchRefused" }, annotations: { expected: "an initialization error" } })

export const WatchEventJson = wireShape(keyedUnion<WatchEvent>(
  {
    ValueChanged: keyedForm("Value", ValueEventJson, identity, identity),
    ChannelAdded: keyedForm("GetterAdded", plain(GetterIdJson), (channel) => ({ _tag: "ChannelAdded", channel }) as const, (e) => e.channel),
    ChannelRemoved: keyedForm("GetterRemoved", plain(GetterIdJson), (channel) => ({ _tag: "ChannelRemoved", channel }) as const, (e) => e.channel),
    WatchRefused: keyedForm("InitializationError", InitializationErrorJson, identity, identity)
  },
  `an event such as {"GetterAdded": "<id>"}`,
  (name) => `unknown event ${JSON.stringify(name)} (known: ${knownEvents})`
), WatchEvent)
