import { Schema, SchemaTransformation } from "effect"
import { GetterIdJson } from "../common/IdentifierJson.ts"
import { WatchEvent } from "../../domain/Watch.ts"
import { ValueJson } from "../common/ValueJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { keyedUnion } from "../common/WireSchema.ts"
import { ChannelErrorJson } from "./ErrorJson.ts"

/**
 * Watch events of vocabulary B (wire.md §7), one per frame: `{"Value": {"from": id, "value": V}}`,
 * `{"GetterAdded": id}`, `{"GetterRemoved": id}`, `{"InitializationError": {"channel": id, "error": E}}`.
 */
const knownEvents = "Value, GetterAdded, GetterRemoved, InitializationError"
const transform = SchemaTransformation.transform


export const WatchEventJson = keyedUnion(
  {
    Value: Schema.Struct({
      Value: Schema.Struct({ from: GetterIdJson, value: ValueJson }).annotate({ expected: "a value event" })
    }).pipe(Schema.decodeTo(
      Schema.toType(WatchEvent.cases.ValueChanged),
      transform({
        decode: ({ Value: e }) => ({ _tag: "ValueChanged", channel: e.from, value: e.value }) as const,
        encode: (e) => ({ Value: { from: e.channel, value: e.value } })
      })
    )),
    GetterAdded: Schema.Struct({ GetterAdded: GetterIdJson }).pipe(Schema.decodeTo(
      Schema.toType(WatchEvent.cases.ChannelAdded),
      transform({ decode: (e) => ({ _tag: "ChannelAdded", channel: e.GetterAdded }) as const, encode: (e) => ({ GetterAdded: e.channel }) })
    )),
    GetterRemoved: Schema.Struct({ GetterRemoved: GetterIdJson }).pipe(Schema.decodeTo(
      Schema.toType(WatchEvent.cases.ChannelRemoved),
      transform({ decode: (e) => ({ _tag: "ChannelRemoved", channel: e.GetterRemoved }) as const, encode: (e) => ({ GetterRemoved: e.channel }) })
    )),
    InitializationError: Schema.Struct({
      InitializationError: Schema.Struct({ channel: GetterIdJson, error: ChannelErrorJson }).annotate({ expected: "an initialization error" })
    }).pipe(Schema.decodeTo(
      Schema.toType(WatchEvent.cases.WatchRefused),
      transform({
        decode: ({ InitializationError: e }) => ({ _tag: "WatchRefused", channel: e.channel, error: e.error }) as const,
        encode: (e) => ({ InitializationError: { channel: e.channel, error: e.error } })
      })
    ))
  },
  `an event such as {"GetterAdded": "<id>"}`,
  (name) => `unknown event ${JSON.stringify(name)} (known: ${knownEvents})`
)

export const decodeWatchEvent = decodeWith(WatchEventJson)
export const encodeWatchEvent = encodeTotal(WatchEventJson)
