import { same, satisfies } from "../domain/Constraint.ts"
import type { ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
import { kindEquals, kindKey } from "../domain/Kind.ts"
import { byId } from "../domain/ListOrder.ts"
import type { ChannelSelector, ServiceSelector } from "../domain/Selector.ts"
import { selectsNothing } from "../domain/SelectorAlgebra.ts"
import type { ChannelRecord, HomeStore, ServiceRecord } from "./HomeStore.ts"
import { EMPTY } from "./Multimap.ts"

/**
 * Selectors answered from the store's indexes: a query starts from the smallest candidate set its
 * constraints give (one id, one service's channels, the channels carrying a tag, the channels of a kind,
 * the channels of services carrying a tag) and checks each candidate, so its cost follows the size of
 * its answer, not of the home. What a selector means is src/domain/SelectorMatch.ts; property tests
 * check that this answers the same.
 */

/** The connected channels any selector matches (OR), sorted by id. `[]` matches nothing. */
export const selectChannels = (home: HomeStore, selectors: ReadonlyArray<ChannelSelector>): ReadonlyArray<ChannelRecord> => {
  const candidates = selectors.map((selector) => candidateChannels(home, selector))
  const count = candidates.reduce((sum, set) => sum + set.size, 0)
  if (count * Math.log2(count) > home.channelCount) {
    // Sorting this many would cost more than walking the whole home, which is kept in id order.
    return home.channelsInIdOrder().filter((channel) => selectors.some((s) => channelMatches(home, s, channel)))
  }
  const [only, ...others] = selectors
  if (only !== undefined && others.length === 0) {
    // One selector: its candidates are distinct, no need to collect them by id.
    return [...candidates[0] ?? EMPTY].filter((channel) => channelMatches(home, only, channel)).sort(byId)
  }
  const found = new Map<ChannelId, ChannelRecord>()
  selectors.forEach((selector, i) => {
    for (const channel of candidates[i] ?? EMPTY) {
      if (!found.has(channel.id) && channelMatches(home, selector, channel)) found.set(channel.id, channel)
    }
  })
  return [...found.values()].sort(byId)
}

/** The connected services any selector matches (OR), sorted by id. */
export const selectServices = (home: HomeStore, selectors: ReadonlyArray<ServiceSelector>): ReadonlyArray<ServiceRecord> => {
  const found = new Map<ServiceId, ServiceRecord>()
  for (const selector of selectors) {
    for (const service of candidateServices(home, selector)) {
      if (!found.has(service.id) && serviceMatches(home, selector, service)) found.set(service.id, service)
    }
  }
  return [...found.values()].sort(byId)
}

export const channelMatches = (home: HomeStore, selector: ChannelSelector, channel: ChannelRecord): boolean =>
  satisfies(selector.id, channel.id, same) &&
  satisfies(selector.service, channel.service, same) &&
  satisfies(selector.mechanism, channel.mechanism, same) &&
  satisfies(selector.kind, channel.kind, kindEquals) &&
  (selector.tags.length === 0 || carriesAll(home.tagsOfChannel(channel.id), selector.tags)) &&
  (selector.serviceTags.length === 0 || carriesAll(home.tagsOfService(channel.service), selector.serviceTags))

export const serviceMatches = (home: HomeStore, selector: ServiceSelector, service: ServiceRecord): boolean =>
  satisfies(selector.id, service.id, same) &&
  carriesAll(home.tagsOfService(service.id), selector.tags) &&
  selector.getters.every((g) => service.getters.some((id) => channelMatchesId(home, g, id))) &&
  selector.setters.every((s) => service.setters.some((id) => channelMatchesId(home, s, id)))

const channelMatchesId = (home: HomeStore, selector: ChannelSelector, id: ChannelId): boolean => {
  const channel = home.channel(id)
  return channel !== undefined && channelMatches(home, selector, channel)
}

/** The smallest set of channels that can hold every match of `selector`. */
const candidateChannels = (home: HomeStore, selector: ChannelSelector): ReadonlySet<ChannelRecord> => {
  if (selectsNothing(selector)) return EMPTY
  if (selector.id._tag === "Exactly") {
    const channel = home.channel(selector.id.value)
    return channel === undefined ? EMPTY : new Set([channel])
  }
  const sets: Array<ReadonlySet<ChannelRecord>> = []
  if (selector.service._tag === "Exactly") {
    const service = home.service(selector.service.value)
    if (service === undefined) return EMPTY
    sets.push(home.channelsOf([service.id]))
  }
  if (selector.kind._tag === "Exactly") sets.push(home.channelsOfKind(kindKey(selector.kind.value)))
  for (const tag of selector.tags) sets.push(home.channelsTagged(tag))
  const owners = smallestTagSet(home, selector.serviceTags)
  if (owners !== undefined) sets.push(home.channelsOf(owners))
  return smallestOf(sets) ?? home.everyChannel()
}

/** The fewest services that can hold every match of `selector`. */
const candidateServices = (home: HomeStore, selector: ServiceSelector): Iterable<ServiceRecord> => {
  if (selector.id._tag === "Conflict") return []
  if (selector.id._tag === "Exactly") {
    const service = home.service(selector.id.value)
    return service === undefined ? [] : [service]
  }
  const sets: Array<ReadonlySet<ServiceId>> = []
  const tagged = smallestTagSet(home, selector.tags)
  if (tagged !== undefined) sets.push(tagged)
  // A service with a required channel owns one of that channel selector's matches.
  for (const channelSelector of [...selector.getters, ...selector.setters]) {
    const owners = new Set<ServiceId>()
    for (const channel of candidateChannels(home, channelSelector)) {
      if (channelMatches(home, channelSelector, channel)) owners.add(channel.service)
    }
    sets.push(owners)
  }
  const smallest = smallestOf(sets)
  if (smallest === undefined) return home.everyService()
  const out: Array<ServiceRecord> = []
  for (const id of smallest) {
    const service = home.service(id)
    if (service !== undefined) out.push(service)
  }
  return out
}

const smallestTagSet = (home: HomeStore, tags: ReadonlyArray<Tag>): ReadonlySet<ServiceId> | undefined =>
  smallestOf(tags.map((tag) => home.servicesTagged(tag)))

const carriesAll = (carried: ReadonlySet<Tag>, wanted: ReadonlyArray<Tag>): boolean =>
  wanted.every((tag) => carried.has(tag))

const smallestOf = <A>(sets: ReadonlyArray<ReadonlySet<A>>): ReadonlySet<A> | undefined =>
  sets.reduce<ReadonlySet<A> | undefined>((min, set) => (min === undefined || set.size < min.size ? set : min), undefined)
