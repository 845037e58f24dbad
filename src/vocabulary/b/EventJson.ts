import { Schema } from "effect"
import { WatchEvent } from "../../domain/Watch.ts"
import { GetterIdJson } from "../common/IdentifierJson.ts"
import { ValueJson } from "../common/ValueJson.ts"
import { decodeWith } from "../common/WireIssue.ts"
import { keyedForm, keyedUnion } from "../common/WireSchema.ts"
import { plain, wireShape } from "../common/WireShape.ts"
import { ChannelErrorJson } from "./ErrorJson.ts"

/**
 * Watch events of vocabulary B (docs/reference.md §7), one per frame: `{"Value": {"from": id, "value": V}}`,
 * `{"GetterAdded": id}`, `{"GetterRemoved": id}`, `{"InitializationError": {"channel": id, "error": E}}`.
 */
const knownEvents = "Value, GetterAdded, GetterRemoved, InitializationError"
const valueEvent = Schema.Struct({ from: GetterIdJson, value: ValueJson.wire }).annotate({ expected: "a value event" })
const initializationError = Schema.Struct({ channel: GetterIdJson, error: ChannelErrorJson.wire }).annotate({ expected: "an initialization error" })

export const WatchEventJson = wireShape(keyedUnion<WatchEvent>(
  {
    ValueChanged: keyedForm(
      "Value",
      plain(valueEvent),
      (e) => ({ _tag: "ValueChanged", channel: e.from, value: ValueJson.read(e.value) }) as const,
      (e) => ({ from: e.channel, value: ValueJson.write(e.value) })
    ),
    ChannelAdded: keyedForm("GetterAdded", plain(GetterIdJson), (channel) => ({ _tag: "ChannelAdded", channel }) as const, (e) => e.channel),
    ChannelRemoved: keyedForm("GetterRemoved", plain(GetterIdJson), (channel) => ({ _tag: "ChannelRemoved", channel }) as const, (e) => e.channel),
    WatchRefused: keyedForm(
      "InitializationError",
      plain(initializationError),
      (e) => ({ _tag: "WatchRefused", channel: e.channel, error: ChannelErrorJson.read(e.error) }) as const,
      (e) => ({ channel: e.channel, error: ChannelErrorJson.write(e.error) })
    )
  },
  `an event such as {"GetterAdded": "<id>"}`,
  (name) => `unknown event ${JSON.stringify(name)} (known: ${knownEvents})`
), WatchEvent)

export const decodeWatchEvent = decodeWith(WatchEventJson)
export const encodeWatchEvent = WatchEventJson.write
