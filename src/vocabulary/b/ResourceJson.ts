import { Schema } from "effect"
import { Channel } from "../../domain/Channel.ts"
import { Mechanism } from "../../domain/Mechanism.ts"
import { Service } from "../../domain/Service.ts"
import { AdapterIdJson, ChannelIdJson, ServiceIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { BareKindJson } from "../common/KindNameJson.ts"
import { TimestampOrNullJson } from "../common/TimestampJson.ts"
import { decodeWith } from "../common/WireIssue.ts"
import { wireCheck } from "../common/WireSchema.ts"
import { listOf, wireShape } from "../common/WireShape.ts"

/**
 * Services and channels in vocabulary B (docs/reference.md §5), with exactly the keys listed there.
 * The order of lists is the domain's (sorted by id); the encoders keep it.
 *
 * B has no `push`: a channel read from B has `pushMs` 0 ("any rate").
 */
const channel = Schema.Struct({
  id: ChannelIdJson,
  service: ServiceIdJson.annotateKey({ description: "The service that holds the channel." }),
  adapter: AdapterIdJson,
  mechanism: Mechanism.annotate({ expected: `"getter" or "setter"` }),
  kind: BareKindJson.wire,
  tags: TagsJson.wire,
  updated: TimestampOrNullJson.wire.annotateKey({ description: "When a getter's value last changed, or a value was last sent to a setter; null if never." }),
  last_seen: TimestampOrNullJson.wire.annotateKey({ description: "When the device last reported anything for the channel; null if never." })
}).annotate({ expected: "a channel", identifier: "BChannel", description: "A getter or setter." })

export const ChannelJson = wireShape({
  wire: channel,
  read: (json): Channel => ({
    id: json.id,
    service: json.service,
    adapter: json.adapter,
    mechanism: json.mechanism,
    kind: BareKindJson.read(json.kind),
    tags: TagsJson.read(json.tags),
    updated: TimestampOrNullJson.read(json.updated),
    lastSeen: TimestampOrNullJson.read(json.last_seen),
    pushMs: 0
  }),
  write: (channel) => ({
    id: channel.id,
    service: channel.service,
    adapter: channel.adapter,
    mechanism: channel.mechanism,
    kind: BareKindJson.write(channel.kind),
    tags: TagsJson.write(channel.tags),
    updated: TimestampOrNullJson.write(channel.updated),
    last_seen: TimestampOrNullJson.write(channel.lastSeen)
  })
}, Channel)

export const ChannelsJson = listOf(ChannelJson, { expected: "an array of channels" })

/** What the device says of itself: string values only. */
const Properties = Schema.Record(Schema.String, Schema.String).annotate({
  expected: "an object of properties",
  description: "What the device says of itself, such as `name` and `model`."
})

type ChannelWire = typeof channel.Type

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

const service = Schema.Struct({
  id: ServiceIdJson,
  adapter: AdapterIdJson,
  tags: TagsJson.wire,
  properties: Properties,
  getters: ChannelsJson.wire,
  setters: ChannelsJson.wire
}).check(wireCheck(foreignChannel)).annotate({ expected: "a service", identifier: "BService", description: "A device." })

export const ServiceJson = wireShape({
  wire: service,
  read: (json): Service => ({
    id: json.id,
    adapter: json.adapter,
    tags: TagsJson.read(json.tags),
    // Read into a fresh object, so a key `__proto__` stays data.
    properties: Object.fromEntries(Object.entries(json.properties)),
    getters: ChannelsJson.read(json.getters),
    setters: ChannelsJson.read(json.setters)
  }),
  write: (service) => ({
    id: service.id,
    adapter: service.adapter,
    tags: TagsJson.write(service.tags),
    properties: service.properties,
    getters: ChannelsJson.write(service.getters),
    setters: ChannelsJson.write(service.setters)
  })
}, Service)

export const ServicesJson = listOf(ServiceJson, { expected: "an array of services" })

export const decodeChannel = decodeWith(ChannelJson)
export const decodeChannels = decodeWith(ChannelsJson)
export const decodeService = decodeWith(ServiceJson)
export const decodeServices = decodeWith(ServicesJson)
export const encodeChannel = ChannelJson.write
export const encodeChannels = ChannelsJson.write
export const encodeService = ServiceJson.write
export const encodeServices = ServicesJson.write
