import { Schema, SchemaTransformation } from "effect"
import { Channel } from "../../domain/Channel.ts"
import { Mechanism } from "../../domain/Mechanism.ts"
import { Service } from "../../domain/Service.ts"
import { AdapterIdJson, ChannelIdJson, ServiceIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { BareKindJson } from "../common/KindNameJson.ts"
import { TimestampOrNullJson } from "../common/TimestampJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"

/**
 * Services and channels in vocabulary B (wire.md §5), with exactly the keys listed there (§9).
 * The order of lists is the domain's (sorted by id); the encoders keep it.
 *
 * B has no `push`: a channel read from B has `pushMs` 0 ("any rate").
 */
export const ChannelJson = Schema.Struct({
  id: ChannelIdJson,
  service: ServiceIdJson.annotateKey({ description: "The service that holds the channel." }),
  adapter: AdapterIdJson,
  mechanism: Mechanism.annotate({ expected: `"getter" or "setter"` }),
  kind: BareKindJson,
  tags: TagsJson,
  updated: TimestampOrNullJson.annotateKey({ description: "When a getter's value last changed, or a value was last sent to a setter; null if never." }),
  last_seen: TimestampOrNullJson.annotateKey({ description: "When the device last reported anything for the channel; null if never." })
}).annotate({ expected: "a channel", identifier: "BChannel", description: "A getter or setter." }).pipe(Schema.decodeTo(
  Schema.toType(Channel),
  SchemaTransformation.transform({
    decode: (json): Channel => ({
      id: json.id,
      service: json.service,
      adapter: json.adapter,
      mechanism: json.mechanism,
      kind: json.kind,
      tags: json.tags,
      updated: json.updated,
      lastSeen: json.last_seen,
      pushMs: 0
    }),
    encode: (channel) => ({
      id: channel.id,
      service: channel.service,
      adapter: channel.adapter,
      mechanism: channel.mechanism,
      kind: channel.kind,
      tags: channel.tags,
      updated: channel.updated,
      last_seen: channel.lastSeen
    })
  })
))

export const ChannelsJson = Schema.Array(ChannelJson).annotate({ expected: "an array of channels" })

/** What the device says of itself: string values only. Read into a fresh object, so a key `__proto__` stays data. */
const Properties = Schema.Record(Schema.String, Schema.String).annotate({
  expected: "an object of properties",
  description: "What the device says of itself, such as `name` and `model`."
}).pipe(Schema.decode(
  SchemaTransformation.transform({ decode: (properties) => Object.fromEntries(Object.entries(properties)), encode: (properties) => properties })
))

/** Where a service's channel is not its own: of another mechanism than its list, or naming another service. */
const foreignChannel = (service: Service): { readonly path: ReadonlyArray<PropertyKey>; readonly issue: string } | undefined => {
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

export const ServiceJson = Schema.Struct({
  id: ServiceIdJson,
  adapter: AdapterIdJson,
  tags: TagsJson,
  properties: Properties,
  getters: ChannelsJson,
  setters: ChannelsJson
}).annotate({ expected: "a service", identifier: "BService", description: "A device." }).pipe(
  Schema.decodeTo(
    Schema.toType(Service),
    SchemaTransformation.transform({ decode: (json): Service => json, encode: (service) => service })
  ),
  Schema.check(Schema.makeFilter(foreignChannel))
)

export const ServicesJson = Schema.Array(ServiceJson).annotate({ expected: "an array of services" })

export const decodeChannel = decodeWith(ChannelJson)
export const decodeChannels = decodeWith(ChannelsJson)
export const decodeService = decodeWith(ServiceJson)
export const decodeServices = decodeWith(ServicesJson)
export const encodeChannel = encodeTotal(ChannelJson)
export const encodeChannels = encodeTotal(ChannelsJson)
export const encodeService = encodeTotal(ServiceJson)
export const encodeServices = encodeTotal(ServicesJson)
