import * as Schema from "effect/Schema"
import { identity } from "effect/Function"
import { Channel } from "../../domain/Channel.ts"
import { Mechanism } from "../../domain/Mechanism.ts"
import { Service } from "../../domain/Service.ts"
import { DOCS } from "../common/Docs.ts"
import { AdapterIdJson, ChannelIdJson, ServiceIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { BareKindJson } from "../common/KindNameJson.ts"
import { TimestampOrNullJson } from "../common/TimestampJson.ts"
import { wireCheck } from "../common/WireSchema.ts"
import { listOf, type WirePart } from "../common/WireShape.ts"
import { fieldsOf, wireRecord } from "../common/WireRecord.ts"

/**
 * Services and channels in vocabulary B (docs/reference.md §5), with exactly the keys listed there.
 * The order of lists is the domain's (sorted by id); the encoders keep it.
 *
 * B has no `push`: a channel read from B has `pushMs` 0 ("any rate").
 */
const channel = fieldsOf(Channel)

export const ChannelJson = wireRecord(Channel, {
  id: channel.field("id", ChannelIdJson),
  service: channel.field("service", ServiceIdJson, DOCS ? "The service that holds the channel." : ""),
  adapter: channel.field("adapter", AdapterIdJson),
  mechanism: channel.field("mechanism", Mechanism.annotate({ expected: `"getter" or "setter"` })),
  kind: channel.field("kind", BareKindJson),
  tags: channel.field("tags", TagsJson),
  updated: channel.field("updated", TimestampOrNullJson, DOCS ? "When a getter's value last changed, or a value was last sent to a setter; null if never." : ""),
  last_seen: channel.field("lastSeen", TimestampOrNullJson, DOCS ? "When the device last reported anything for the channel; null if never." : "")
}, { constants: { pushMs: 0 }, annotations: { expected: "a channel", identifier: "BChannel", description: DOCS ? "A getter or setter." : "" } })

export const ChannelsJson = listOf(ChannelJson, { expected: "an array of channels" })

/** What the device says of itself: string values only. */
const Properties: WirePart<Service["properties"], Service["properties"]> = {
  wire: Schema.Record(Schema.String, Schema.String).annotate({
    expected: "an object of properties",
    description: DOCS ? "What the device says of itself, such as `name` and `model`." : ""
  }),
  // Read into a fresh object, so a key `__proto__` stays data.
  read: (json) => Object.fromEntries(Object.entries(json)),
  write: identity
}

type ChannelWire = typeof ChannelJson.wire.Type

/** Where a service's channel is not its own: of another mechanism than its list, or naming another service. */
const foreignChannel = (service: {
  readonly id: string
  readonly getters: ReadonlyArray<ChannelWire>
  readonly setters: ReadonlyArray<ChannelWire>
}): { readonly path: ReadonlyArray<PropertyKey>; readonly issue: string } | undefined => {
  for (const [list, mechanism] of [["getters", "getter"], ["setters", "setter"]] as const) {
    const channels = service[list]
    for (let i = 0; i < channels.length; i++) {
      const channel = channels[i]
      if (channel?.mechanism !== mechanism) return { path: [list, i, "mechanism"], issue: `expected "${mechanism}" here` }
      if (channel.service !== service.id) return { path: [list, i, "service"], issue: "expected the id of the service that holds the channel" }
    }
  }
  return undefined
}

const service = fieldsOf(Service)

export const ServiceJson = wireRecord(Service, {
  id: service.field("id", ServiceIdJson),
  adapter: service.field("adapter", AdapterIdJson),
  tags: service.field("tags", TagsJson),
  properties: service.field("properties", Properties),
  getters: service.field("getters", ChannelsJson),
  setters: service.field("setters", ChannelsJson)
}, { checks: [wireCheck(foreignChannel)], annotations: { expected: "a service", identifier: "BService", description: DOCS ? "A device." : "" } })

export const ServicesJson = listOf(ServiceJson, { expected: "an array of services" })
