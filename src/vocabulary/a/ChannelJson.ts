import { Schema, SchemaTransformation, Struct } from "effect"
import { Channel } from "../../domain/Channel.ts"
import { byId } from "../../domain/ListOrder.ts"
import { normalizeTags } from "../../domain/Identifier.ts"
import { ChannelIdJson, NodeIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { TimestampOrNullJson } from "../common/TimestampJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { explainedBy, keyedUnion } from "../common/WireSchema.ts"
import { KindJson } from "./KindJson.ts"

/**
 * A channel as vocabulary A shows it (wire.md §5): `{"id", "node", "tags", "last_seen", "mechanism"}`,
 * the mechanism `{"Get": {"kind", "updated"}}` or `{"Set": {"kind", "push": [ms], "updated"}}`.
 */

/**
 * What A says of a channel: everything but its adapter, which A does not show. A getter's `pushMs` is
 * always 0 here, since A's `Get` has no `push`.
 */
export const ChannelInA = Schema.Struct(Struct.omit(Channel.fields, ["adapter"]))
export type ChannelInA = typeof ChannelInA.Type

/** The A view of a domain channel: `decodeChannel(encodeChannel(c)) = channelInA(c)`. */
export const channelInA = (channel: ChannelInA): ChannelInA => ({
  id: channel.id,
  service: channel.service,
  mechanism: channel.mechanism,
  kind: channel.kind,
  tags: normalizeTags(channel.tags),
  updated: channel.updated,
  lastSeen: channel.lastSeen,
  pushMs: channel.mechanism === "getter" ? 0 : channel.pushMs
})

const pushMessage = "expected [ms]: an array holding one integer"

/** `push` holds exactly one integer >= 0: the least interval, in ms, at which the device accepts values. */
const Push = Schema.Tuple([
  Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate(
    explainedBy(() => "expected an integer number of milliseconds >= 0")
  )
]).annotate({
  description: "The least interval, in milliseconds, at which the device accepts values; `[0]`: any rate.",
  ...explainedBy((input) => (Array.isArray(input) && input.length === 1 ? Push : pushMessage))
})

type MechanismInA = Pick<ChannelInA, "mechanism" | "kind" | "updated" | "pushMs">
const MechanismInA = Schema.Struct(Struct.pick(Channel.fields, ["mechanism", "kind", "updated", "pushMs"]))

const Mechanism = keyedUnion(
  {
    Get: Schema.Struct({
      Get: Schema.Struct({ kind: KindJson, updated: TimestampOrNullJson }).annotate({ expected: "a Get mechanism" })
    }),
    Set: Schema.Struct({
      Set: Schema.Struct({ kind: KindJson, push: Push, updated: TimestampOrNullJson }).annotate({ expected: "a Set mechanism" })
    })
  },
  `{"Get": …} or {"Set": …}`,
  (name) => `unknown mechanism ${JSON.stringify(name)}, expected "Get" or "Set"`
).pipe(Schema.decodeTo(
  Schema.toType(MechanismInA),
  SchemaTransformation.transform({
    decode: (json): MechanismInA =>
      "Get" in json
        ? { mechanism: "getter", kind: json.Get.kind, updated: json.Get.updated, pushMs: 0 }
        : { mechanism: "setter", kind: json.Set.kind, updated: json.Set.updated, pushMs: json.Set.push[0] + 0 },
    encode: (m) =>
      m.mechanism === "getter"
        ? { Get: { kind: m.kind, updated: m.updated } }
        : { Set: { kind: m.kind, push: [m.pushMs] as const, updated: m.updated } }
  })
))

export const ChannelJson = Schema.Struct({
  id: ChannelIdJson,
  node: NodeIdJson,
  tags: TagsJson,
  last_seen: TimestampOrNullJson,
  mechanism: Mechanism
}).annotate({ expected: "a Channel", identifier: "AChannel", description: "An input or output." }).pipe(Schema.decodeTo(
  Schema.toType(ChannelInA),
  SchemaTransformation.transform({
    decode: (json): ChannelInA => ({ id: json.id, service: json.node, tags: json.tags, lastSeen: json.last_seen, ...json.mechanism }),
    // Takes a domain Channel as it is (its adapter is left out) or an A view.
    encode: (channel) => ({
      id: channel.id,
      node: channel.service,
      tags: channel.tags,
      last_seen: channel.lastSeen,
      mechanism: { mechanism: channel.mechanism, kind: channel.kind, updated: channel.updated, pushMs: channel.pushMs }
    })
  })
))

/** Lists are sorted by id (wire.md §5), whatever the order given. */
export const sortChannels = <C extends ChannelInA>(channels: ReadonlyArray<C>): ReadonlyArray<C> =>
  [...channels].sort(byId)

/** Channels, written in id order. */
export const channelsJson = (what: string) =>
  Schema.Array(ChannelJson).annotate({ expected: what }).pipe(Schema.decode(
    SchemaTransformation.transform({ decode: (channels) => channels, encode: sortChannels })
  ))

export const ChannelsJson = channelsJson("an array of Channel")

export const decodeChannels = decodeWith(ChannelsJson)
export const encodeChannel = encodeTotal(ChannelJson)
export const encodeChannels = encodeTotal(ChannelsJson)
