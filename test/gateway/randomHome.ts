import * as fc from "fast-check"
import { Option } from "effect"
import type { Channel, ChannelSelector, Constraint, Kind, Service, ServiceSelector, Tag } from "../../src/domain/index.ts"
import { AdapterId, ChannelId, kindKey, ServiceId } from "../../src/domain/index.ts"
import { HomeIndex } from "../../src/gateway/HomeIndex.ts"
import type { ChannelRecord } from "../../src/gateway/HomeStore.ts"

/**
 * Random homes and random selectors over small pools of ids, tags and kinds, so that selectors often
 * hit, miss and overlap. Used to check the indexed engine against the plain meaning of selectors.
 */
const tagPool = ["kitchen", "hall", "light", "door", "red", "blue"] as Array<Tag>
const kinds: ReadonlyArray<Kind> = [
  { _tag: "Builtin", name: "OnOff" },
  { _tag: "Builtin", name: "OpenClosed" },
  { _tag: "Builtin", name: "Ready" },
  { _tag: "Extension", vendor: "v", adapter: "a", kind: "k", type: "ExtNumeric" }
]
export const serviceIds = Array.from({ length: 6 }, (_, i) => ServiceId.make(`service:${i}@test`))
export const channelIds = Array.from({ length: 24 }, (_, i) => ChannelId.make(`channel:${i}@test`))
const adapter = AdapterId.make("test@gateway.local")

const tagSet = fc.uniqueArray(fc.constantFrom(...tagPool), { maxLength: 3 })

export interface RandomHome {
  readonly services: ReadonlyArray<{
    readonly id: ServiceId
    readonly tags: ReadonlyArray<Tag>
    readonly channels: ReadonlyArray<{ id: ChannelId; getter: boolean; kind: Kind; tags: ReadonlyArray<Tag> }>
  }>
}

/** Each channel id is used at most once; services take consecutive slices of the channel pool. */
export const randomHome: fc.Arbitrary<RandomHome> = fc
  .array(
    fc.record({
      tags: tagSet,
      channels: fc.array(fc.record({ getter: fc.boolean(), kind: fc.constantFrom(...kinds), tags: tagSet }), { maxLength: 4 })
    }),
    { maxLength: serviceIds.length }
  )
  .map((specs) => {
    let next = 0
    return {
      services: specs.map((spec, i) => ({
        id: ServiceId.make(`service:${i}@test`),
        tags: spec.tags,
        channels: spec.channels.map((c) => ({ ...c, id: ChannelId.make(`channel:${next++}@test`) }))
      }))
    }
  })

export const buildIndex = (home: RandomHome): HomeIndex => {
  const index = new HomeIndex()
  for (const service of home.services) {
    const records = service.channels.map((c): ChannelRecord => ({
      id: c.id,
      service: service.id,
      adapter,
      mechanism: c.getter ? "getter" : "setter",
      kind: c.kind,
      kindKey: kindKey(c.kind),
      pushMs: 0,
      updated: null,
      lastSeen: null,
      lastValue: Option.none()
    }))
    index.putService(
      {
        id: service.id,
        adapter,
        properties: {},
        getters: records.filter((r) => r.mechanism === "getter").map((r) => r.id).sort(),
        setters: records.filter((r) => r.mechanism === "setter").map((r) => r.id).sort()
      },
      records
    )
    index.retagService(service.id, service.tags, true)
    for (const c of service.channels) index.retagChannel(c.id, c.tags, true)
  }
  return index
}

/** Every connected service and channel as resources: what the plain matching functions look at. */
export const resources = (index: HomeIndex, home: RandomHome) => {
  const services: Array<Service> = []
  for (const s of home.services) {
    const record = index.service(s.id)
    if (record !== undefined) services.push(index.toService(record))
  }
  const channels: Array<{ channel: Channel; serviceTags: ReadonlyArray<Tag> }> = services.flatMap((s) =>
    [...s.getters, ...s.setters].map((channel) => ({ channel, serviceTags: s.tags }))
  )
  return { services, channels }
}

const constraint = <A>(values: ReadonlyArray<A>): fc.Arbitrary<Constraint<A>> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant<Constraint<A>>({ _tag: "Empty" }) },
    { weight: 3, arbitrary: fc.constantFrom(...values).map((value): Constraint<A> => ({ _tag: "Exactly", value })) },
    { weight: 1, arbitrary: fc.constant<Constraint<A>>({ _tag: "Conflict" }) }
  )

export const channelSelector: fc.Arbitrary<ChannelSelector> = fc.record({
  id: constraint(channelIds),
  service: constraint(serviceIds),
  mechanism: constraint(["getter", "setter"] as const),
  kind: constraint(kinds),
  tags: tagSet,
  serviceTags: tagSet
})

export const serviceSelector: fc.Arbitrary<ServiceSelector> = fc.record({
  id: constraint(serviceIds),
  tags: tagSet,
  getters: fc.array(channelSelector, { maxLength: 2 }),
  setters: fc.array(channelSelector, { maxLength: 2 })
})
