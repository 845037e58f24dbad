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

export const buildIndex = <I extends HomeIndex = HomeIndex>(home: RandomHome, index: I = new HomeIndex() as I): I => {
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

/**
 * Fields mostly left free, and values mostly among the first ids, which most homes hold: a selector
 * constrains several fields at once (AND), so that otherwise few would match anything (docs/laws.md).
 */
const constraint = <A>(values: ReadonlyArray<A>, likely: number = values.length): fc.Arbitrary<Constraint<A>> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant<Constraint<A>>({ _tag: "Empty" }) },
    {
      weight: 3,
      arbitrary: fc.oneof(fc.constantFrom(...values.slice(0, likely)), fc.constantFrom(...values))
        .map((value): Constraint<A> => ({ _tag: "Exactly", value }))
    },
    { weight: 1, arbitrary: fc.constant<Constraint<A>>({ _tag: "Conflict" }) }
  )

/** Mostly no tag or one: all-of a longer list is rarely carried. */
const selectorTags = fc.oneof(
  { weight: 3, arbitrary: fc.constant([]) },
  { weight: 2, arbitrary: fc.constantFrom(...tagPool).map((t) => [t]) },
  { weight: 1, arbitrary: tagSet }
)

export const channelSelector: fc.Arbitrary<ChannelSelector> = fc.record({
  id: constraint(channelIds, 6),
  service: constraint(serviceIds, 3),
  mechanism: constraint(["getter", "setter"] as const),
  kind: constraint(kinds),
  tags: selectorTags,
  serviceTags: selectorTags
})

export const serviceSelector: fc.Arbitrary<ServiceSelector> = fc.record({
  id: constraint(serviceIds, 3),
  tags: selectorTags,
  getters: fc.array(channelSelector, { maxLength: 2 }),
  setters: fc.array(channelSelector, { maxLength: 2 })
})

type HomeChannel = RandomHome["services"][number]["channels"][number]

/** The constraint of a selector drawn from a thing: mostly free or the thing's own value, sometimes any. */
const near = <A>(own: A, any: fc.Arbitrary<Constraint<A>>): fc.Arbitrary<Constraint<A>> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant<Constraint<A>>({ _tag: "Empty" }) },
    { weight: 3, arbitrary: fc.constant<Constraint<A>>({ _tag: "Exactly", value: own }) },
    { weight: 1, arbitrary: any }
  )

const selectorNear = (service: RandomHome["services"][number], channel: HomeChannel): fc.Arbitrary<ChannelSelector> =>
  fc.record({
    id: near(channel.id, constraint(channelIds, 6)),
    service: near(service.id, constraint(serviceIds, 3)),
    mechanism: near(channel.getter ? "getter" as const : "setter" as const, constraint(["getter", "setter"] as const)),
    kind: near(channel.kind, constraint(kinds)),
    tags: fc.oneof({ weight: 3, arbitrary: fc.subarray([...channel.tags]) }, { weight: 1, arbitrary: selectorTags }),
    serviceTags: fc.oneof({ weight: 3, arbitrary: fc.subarray([...service.tags]) }, { weight: 1, arbitrary: selectorTags })
  })

/**
 * A channel selector for `home`: half of them drawn from one of its channels (which then often match
 * it), half at random (which often match nothing), so that a law sees both.
 */
export const channelSelectorOn = (home: RandomHome): fc.Arbitrary<ChannelSelector> => {
  const drawn = home.services.flatMap((service) => service.channels.map((channel) => selectorNear(service, channel)))
  return drawn.length === 0 ? channelSelector : fc.oneof(channelSelector, fc.oneof(...drawn))
}

/** A service selector for `home`: half drawn from one of its services and its channels, half at random. */
export const serviceSelectorOn = (home: RandomHome): fc.Arbitrary<ServiceSelector> => {
  const drawn = home.services.map((service) => {
    const ofService = service.channels.map((channel) => selectorNear(service, channel))
    const channelSelectors = fc.array(ofService.length === 0 ? channelSelector : fc.oneof(...ofService), { maxLength: 1 })
    return fc.record({
      id: near(service.id, constraint(serviceIds, 3)),
      tags: fc.oneof({ weight: 3, arbitrary: fc.subarray([...service.tags]) }, { weight: 1, arbitrary: selectorTags }),
      getters: channelSelectors.map((cs) => cs.filter((c) => c.mechanism._tag !== "Exactly" || c.mechanism.value === "getter")),
      setters: channelSelectors.map((cs) => cs.filter((c) => c.mechanism._tag !== "Exactly" || c.mechanism.value === "setter"))
    })
  })
  return drawn.length === 0 ? serviceSelector : fc.oneof(serviceSelector, fc.oneof(...drawn))
}

/** A random home with what `of` draws for it. */
export const homeWith = <A>(of: (home: RandomHome) => fc.Arbitrary<A>): fc.Arbitrary<readonly [RandomHome, A]> =>
  randomHome.chain((home) => fc.tuple(fc.constant(home), of(home)))
