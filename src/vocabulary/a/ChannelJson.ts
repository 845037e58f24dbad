import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { Channel } from "../../domain/Channel.ts"
import { byId, inOrder } from "../../domain/ListOrder.ts"
import { normalizeTags } from "../../domain/Identifier.ts"
import { DOCS } from "../common/Docs.ts"
import { ChannelIdJson, NodeIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { TimestampOrNullJson } from "../common/TimestampJson.ts"
import { explainedBy, explainKeyed } from "../common/WireSchema.ts"
import { fieldsOf, wireRecord } from "../common/WireRecord.ts"
import { listOf, type WirePart } from "../common/WireShape.ts"
import { KindJson } from "./KindJson.ts"

/**
 * A channel as vocabulary A shows it (docs/reference.md §5): `{"id", "node", "tags", "last_seen", "mechanism"}`,
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
  description: DOCS ? "The least interval, in milliseconds, at which the device accepts values; `[0]`: any rate." : "",
  ...explainedBy((input) => (Array.isArray(input) && input.length === 1 ? Push : pushMessage))
})

type MechanismInA = Pick<ChannelInA, "mechanism" | "kind" | "updated" | "pushMs">

const getMechanism = Schema.Struct({ kind: KindJson.wire, updated: TimestampOrNullJson.wire }).annotate({ expected: "a Get mechanism" })
const setMechanism = Schema.Struct({ kind: KindJson.wire, push: Push, updated: TimestampOrNullJson.wire }).annotate({ expected: "a Set mechanism" })
const mechanismForms = { Get: Schema.Struct({ Get: getMechanism }), Set: Schema.Struct({ Set: setMechanism }) }

type MechanismWire = typeof mechanismForms.Get.Type | typeof mechanismForms.Set.Type

const mechanismExample = `{"Get": …} or {"Set": …}`

const Mechanism: WirePart<MechanismInA, MechanismWire> = {
  wire: Schema.Union([mechanismForms.Get, mechanismForms.Set]).annotate(explainedBy(explainKeyed(
    mechanismExample,
    (name) => (name === "Get" || name === "Set" ? mechanismForms[name] : undefined),
    (name) => `unknown mechanism ${JSON.stringify(name)}, expected "Get" or "Set"`
  ))),
  read: (json) =>
    "Get" in json
      ? { mechanism: "getter", kind: KindJson.read(json.Get.kind), updated: TimestampOrNullJson.read(json.Get.updated), pushMs: 0 }
      : {
        mechanism: "setter",
        kind: KindJson.read(json.Set.kind),
        updated: TimestampOrNullJson.read(json.Set.updated),
        pushMs: json.Set.push[0] + 0
      },
  write: (m) =>
    m.mechanism === "getter"
      ? { Get: { kind: KindJson.write(m.kind), updated: TimestampOrNullJson.write(m.updated) } }
      : { Set: { kind: KindJson.write(m.kind), push: [m.pushMs] as const, updated: TimestampOrNullJson.write(m.updated) } }
}

const channel = fieldsOf(ChannelInA)

// Takes a domain Channel as it is (its adapter is left out) or an A view.
export const ChannelJson = wireRecord(ChannelInA, {
  id: channel.field("id", ChannelIdJson),
  node: channel.field("service", NodeIdJson),
  tags: channel.field("tags", TagsJson),
  last_seen: channel.field("lastSeen", TimestampOrNullJson),
  mechanism: channel.spread(["mechanism", "kind", "updated", "pushMs"], Mechanism)
}, { annotations: { expected: "a Channel", identifier: "AChannel", description: DOCS ? "An input or output." : "" } })

export type ChannelWire = typeof ChannelJson.wire.Type

/** Lists are sorted by id (docs/reference.md §5), whatever the order given. */
export const sortChannels = <C extends ChannelInA>(channels: ReadonlyArray<C>): ReadonlyArray<C> =>
  inOrder(channels, byId)

/** Channels, written in id order. */
export const channelsJson = (what: string) => listOf(ChannelJson, { expected: what }, sortChannels)

export const ChannelsJson = channelsJson("an array of Channel")
