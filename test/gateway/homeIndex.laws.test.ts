import * as fc from "fast-check"
import { expect } from "vitest"
import {
  anyChannel,
  anyChannelMatches,
  anyService,
  anyServiceMatches,
  type ChannelSelector,
  channelMatches,
  kindKey,
  selectsNothing,
  type ServiceId,
  type Tag
} from "../../src/domain/index.ts"
import { HomeIndex } from "../../src/gateway/HomeIndex.ts"
import type { ChannelRecord, ServiceRecord } from "../../src/gateway/HomeStore.ts"
import { law } from "../laws/law.ts"
import { buildIndex, channelSelectorOn, homeWith, type RandomHome, resources, serviceSelectorOn } from "./randomHome.ts"

/**
 * The index = scan laws (docs/laws.md): the home index (src/gateway/SelectorPlan.ts) answers a selector
 * exactly as a plain scan with the meaning of selectors (src/domain/SelectorMatch.ts) does, on random homes.
 */

const ids = (things: ReadonlyArray<{ readonly id: string }>) => things.map((t) => t.id)

law("index = scan for channel selectors", { of: "arrays matching at least one channel", floor: 0.25 }, 300, (note) =>
  fc.property(homeWith((h) => fc.array(channelSelectorOn(h), { maxLength: 3 })), ([home, selectors]) => {
    const index = buildIndex(home)
    const { channels } = resources(index, home)
    const scanned = channels.filter((c) => anyChannelMatches(selectors, c.channel, c.serviceTags)).map((c) => c.channel.id).sort()
    expect(ids(index.selectChannels(selectors))).toEqual(scanned)
    for (const { channel, serviceTags } of channels) {
      const record = index.channel(channel.id)
      if (record === undefined) continue
      expect(index.toChannel(record)).toEqual(channel)
      expect(index.channelMatches(selectors[0] ?? anyChannel, record)).toBe(channelMatches(selectors[0] ?? anyChannel, channel, serviceTags))
    }
    note(scanned.length > 0)
  }))

law("index = scan for service selectors", { of: "arrays matching at least one service", floor: 0.2 }, 300, (note) =>
  fc.property(homeWith((h) => fc.array(serviceSelectorOn(h), { maxLength: 3 })), ([home, selectors]) => {
    const index = buildIndex(home)
    const { services } = resources(index, home)
    const scanned = services.filter((s) => anyServiceMatches(selectors, s)).map((s) => s.id).sort()
    expect(ids(index.selectServices(selectors))).toEqual(scanned)
    for (const service of services) {
      const record = index.service(service.id)
      if (record !== undefined) expect(index.serviceMatches(selectors[0] ?? anyService, record)).toBe(anyServiceMatches(selectors.slice(0, 1), service) || selectors.length === 0)
    }
    note(scanned.length > 0)
  }))

law("index = scan when its candidate indexes were built before the home connected", { of: "arrays matching at least one channel", floor: 0.25 }, 200, (note) =>
  fc.property(homeWith((h) => fc.tuple(fc.array(channelSelectorOn(h), { maxLength: 3 }), fc.array(serviceSelectorOn(h), { maxLength: 3 }))), ([home, [channelSelectors, serviceSelectors]]) => {
    // The candidate indexes are built on the first query: asked of the empty home, they then follow every
    // service, channel and tag as it comes, where the other laws build them from a home already connected.
    const early = new HomeIndex()
    expect(early.selectChannels([anyChannel])).toEqual([])
    const index = buildIndex(home, early)
    const { channels, services } = resources(index, home)
    const scanned = channels.filter((c) => anyChannelMatches(channelSelectors, c.channel, c.serviceTags)).map((c) => c.channel.id).sort()
    expect(ids(index.selectChannels(channelSelectors))).toEqual(scanned)
    expect(ids(index.selectServices(serviceSelectors))).toEqual(services.filter((s) => anyServiceMatches(serviceSelectors, s)).map((s) => s.id).sort())
    note(scanned.length > 0)
  }))

law("index = scan after services leave and come back", { of: "selectors matching at least one channel", floor: 0.25 }, 200, (note) =>
  fc.property(homeWith(channelSelectorOn), fc.array(fc.boolean()), ([home, selector], leaves) => {
    const index = buildIndex(home)
    index.selectChannels([anyChannel]) // the first query orders the whole home
    const left = home.services.filter((_, i) => leaves[i] === true)
    const kept = { services: home.services.filter((_, i) => leaves[i] !== true) }
    const records = left.flatMap((s) => {
      const record = index.service(s.id)
      return record === undefined ? [] : [{ record, channels: index.removeService(s.id) }]
    })
    const scan = (h: typeof home) =>
      resources(index, h).channels.filter((c) => anyChannelMatches([selector], c.channel, c.serviceTags)).map((c) => c.channel.id).sort()
    expect(ids(index.selectChannels([selector]))).toEqual(scan(kept))
    for (const { record, channels } of records) index.putService(record, channels)
    const all = scan(home)
    expect(ids(index.selectChannels([selector]))).toEqual(all)
    note(all.length > 0)
  }))

/**
 * The home index, counting what a query looks at: the channels it takes from the sets its lookups give
 * (every channel, those of a service, a kind, a tag), the services it reads one by one or takes from all
 * of them, and whether it walked the whole home in id order.
 */
class CountingIndex extends HomeIndex {
  channelLooks = 0
  serviceLooks = 0
  walked = false

  override everyChannel(): ReadonlySet<ChannelRecord> {
    return this.counted(super.everyChannel())
  }
  override channelsTagged(tag: Tag): ReadonlySet<ChannelRecord> {
    return this.counted(super.channelsTagged(tag))
  }
  override channelsOfKind(kindKey: string): ReadonlySet<ChannelRecord> {
    return this.counted(super.channelsOfKind(kindKey))
  }
  override channelsOf(services: Iterable<ServiceId>): ReadonlySet<ChannelRecord> {
    return this.counted(super.channelsOf(services))
  }
  override channelsInIdOrder(): ReadonlyArray<ChannelRecord> {
    this.walked = true
    return super.channelsInIdOrder()
  }
  override *everyService(): Iterable<ServiceRecord> {
    for (const service of super.everyService()) {
      this.serviceLooks++
      yield service
    }
  }
  override service(id: ServiceId): ServiceRecord | undefined {
    this.serviceLooks++
    return super.service(id)
  }

  /** A copy of `set` that counts the channels taken from it. */
  private counted(set: ReadonlySet<ChannelRecord>): ReadonlySet<ChannelRecord> {
    const copy = new Set(set)
    const values = () => Set.prototype.values.call(copy)
    const count = () => this.channelLooks++
    Object.defineProperty(copy, Symbol.iterator, {
      value: function*() {
        for (const channel of values()) {
          count()
          yield channel
        }
      }
    })
    return copy
  }

  reset(): void {
    this.channelLooks = 0
    this.serviceLooks = 0
    this.walked = false
  }
}

/** The fewest of `counts`, or `all` if there is none. */
const fewest = (counts: ReadonlyArray<number>, all: number): number => Math.min(all, ...counts)

/** What sorting `n` candidates costs, as the plan weighs it against walking the home. */
const sortCost = (n: number): number => (n <= 1 ? 0 : n * Math.log2(n))

/**
 * What the plan may look at for one channel selector, from the plain home: the smallest of the one channel
 * of its id, the channels of its service, of its kind, carrying one of its tags, or of the services
 * carrying the service tag the fewest services carry. Where several tags are carried by that fewest,
 * their channels may differ in number: `low` takes the fewest, `high` the most.
 */
const channelBound = (home: RandomHome, selector: ChannelSelector): { readonly low: number; readonly high: number } => {
  const channels = home.services.flatMap((service) => service.channels.map((channel) => ({ service, channel })))
  if (selectsNothing(selector)) return { low: 0, high: 0 }
  if (selector.id._tag === "Exactly") {
    const id = selector.id.value
    const found = channels.some(({ channel }) => channel.id === id) ? 1 : 0
    return { low: found, high: found }
  }
  const counts: Array<number> = []
  const { service, kind } = selector
  if (service._tag === "Exactly") counts.push(channels.filter((c) => c.service.id === service.value).length)
  if (kind._tag === "Exactly") counts.push(channels.filter((c) => kindKey(c.channel.kind) === kindKey(kind.value)).length)
  for (const tag of selector.tags) counts.push(channels.filter((c) => c.channel.tags.includes(tag)).length)
  if (selector.serviceTags.length === 0) return { low: fewest(counts, channels.length), high: fewest(counts, channels.length) }
  const carriers = selector.serviceTags.map((tag) => home.services.filter((s) => s.tags.includes(tag)))
  const least = Math.min(...carriers.map((c) => c.length))
  const tied = carriers.filter((c) => c.length === least).map((c) => c.reduce((n, s) => n + s.channels.length, 0))
  return { low: fewest([...counts, Math.min(...tied)], channels.length), high: fewest([...counts, Math.max(...tied)], channels.length) }
}

law("the index looks at no more channels than the narrowest constraint of the selector gives", { of: "selectors whose constraints narrow the candidates", floor: 0.5 }, 300, (note) =>
  fc.property(homeWith(channelSelectorOn), ([home, selector]) => {
    const index = buildIndex(home, new CountingIndex())
    const { low, high } = channelBound(home, selector)
    const all = index.channelCount
    index.reset()
    index.selectChannels([selector])
    // It walks the home in id order when sorting the candidates would cost more, and only then.
    if (index.walked) {
      expect(sortCost(high)).toBeGreaterThan(all)
      expect(index.channelLooks).toBe(0)
    } else {
      expect(sortCost(low)).toBeLessThanOrEqual(all)
      expect(index.channelLooks).toBeLessThanOrEqual(high)
    }
    note(high < all)
  }))

law("the index looks at no more services than the narrowest constraint of the selector gives", { of: "selectors whose constraints narrow the candidates", floor: 0.5 }, 300, (note) =>
  fc.property(homeWith(serviceSelectorOn), ([home, selector]) => {
    const index = buildIndex(home, new CountingIndex())
    const { services, channels } = resources(index, home)
    const owners = (r: ChannelSelector) => new Set(channels.filter((c) => channelMatches(r, c.channel, c.serviceTags)).map((c) => c.channel.service)).size
    const requirements = [...selector.getters, ...selector.setters]
    const bound = selector.id._tag === "Conflict"
      ? 0
      : selector.id._tag === "Exactly"
      ? 1
      : fewest([...selector.tags.map((tag) => index.servicesTagged(tag).size), ...requirements.map(owners)], services.length)
    index.reset()
    index.selectServices([selector])
    // A required channel selector naming its service reads that service to find its candidates.
    const naming = requirements.filter((r) => !selectsNothing(r) && r.id._tag !== "Exactly" && r.service._tag === "Exactly")
    expect(index.serviceLooks).toBeLessThanOrEqual(bound + naming.length)
    note(bound < services.length)
  }))
