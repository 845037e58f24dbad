import { Schema } from "effect"
import { WatchEvent } from "../../domain/Watch.ts"
import { GetterIdJson } from "../common/IdentifierJson.ts"
import { ValueJson } from "../common/ValueJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { keyedForm, keyedUnion } from "../common/WireSchema.ts"
import { ChannelErrorJson } from "./ErrorJson.ts"

/**
 * Watch events of vocabulary B (wire.md §7), one per frame: `{"Value": {"from": id, "value": V}}`,
 * `{"GetterAdded": id}`, `{"GetterRemoved": id}`, `{"InitializationError": {"channel": id, "error": E}}`.
 */
const knownEvents = "Value, GetterAdded, GetterRemoved, InitializationError"
const { cases } = WatchEvent

export const WatchEventJson = keyedUnion(
  {
    Value: keyedForm(
      "Value",
      Schema.Struct({ from: GetterIdJson, value: ValueJson }).annotate({ expected: "a value event" }),
      cases.ValueChanged,
      (e) => ({ _tag: "ValueChanged", channel: e.from, value: e.value }) as const,
      (e) => ({ from: e.channel, value: e.value })
    ),
    GetterAdded: keyedForm("GetterAdded", GetterIdJson, cases.ChannelAdded, (channel) => ({ _tag: "ChannelAdded", channel }) as const, (e) => e.channel),
    GetterRemoved: keyedForm("GetterRemoved", GetterIdJson, cases.ChannelRemoved, (channel) => ({ _tag: "ChannelRemoved", channel }) as const, (e) => e.channel),
    InitializationError: keyedForm(
      "InitializationError",
      Schema.Struct({ channel: GetterIdJson, error: ChannelErrorJson }).annotate({ expected: "an initialization error" }),
      cases.WatchRefused,
      (e) => ({ _tag: "WatchRefused", channel: e.channel, error: e.error }) as const,
      (e) => ({ channel: e.channel, error: e.error })
    )
  },
  `an event such as {"GetterAdded": "<id>"}`,
  (name) => `unknown event ${JSON.stringify(name)} (known: ${knownEvents})`
)

export const decodeWatchEvent = decodeWith(WatchEventJson)
export const encodeWatchEvent = encodeTotal(WatchEventJson)
