import { Option } from "effect"
import type { Channel, Timestamp } from "../domain/Channel.ts"
import { same, satisfies } from "../domain/Constraint.ts"
import type { AdapterId, ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
import { type Kind, kindEquals, kindKey } from "../domain/Kind.ts"
import type { Mechanism } from "../domain/Mechanism.ts"
import { byId } from "../domain/ListOrder.ts"
import type { ChannelSelector, ServiceSelector } from "../domain/Selector.ts"
import { selectsNothing } from "../domain/SelectorAlgebra.ts"
import type { Service } from "../domain/Service.ts"
import type { Value } from "../domain/Value.ts"
import { EMPTY, link, unlink } from "./Multimap.ts"
import { TagSets } from "./TagSets.ts"

/**
 * A connected channel as the gateway keeps it, read-only for everyone: what changes (`updated`,
 * `lastSeen`, `lastValue`) changes through the index's `mark*` methods, which only the Registry calls.
 */
export interface ChannelRecord {
  readonly id: ChannelId
  readonly service: ServiceId
  readonly adapter: AdapterId
  readonly mechanism: Mechanism
  readonly kind: Kind
  readonly kindKey: string
  readonly pushMs: number
  readonly updated: Timestamp | null
  readonly lastSeen: Timestamp | null
  readonly lastValue: Option.Option<Value>
}

/** What the gateway last heard of a channel: the part of its record that changes while it is connected. */
type ChannelState = Pick<ChannelRecord, "updated" | "lastSeen" | "lastValue">

/** A channel record as the index stores it: its state written by the index alone. */
type StoredChannel = Omit<ChannelRecord, keyof ChannelState> & { -readonly [K in keyof ChannelState]: ChannelState[K] }

/** A connected service as the gateway keeps it; its channels are listed by id, sorted. */
export interface ServiceRecord {
  readonly id: ServiceId
  readonly adapter: AdapterId
  readonly properties: Readonly<Record<string, string>>
  readonly getters: ReadonlyArray<ChannelId>
  readonly setters: ReadonlyArray<ChannelId>
}


/** What the gateway's services may do with the home: read it and select in it. Only the Registry changes it. */
export type HomeView = Pick<
  HomeIndex,
  | "service"
  | "channel"
  | "tagsOfService"
  | "tagsOfChannel"
  | "selectChannels"
  | "selectServices"
  | "channelMatches"
  | "serviceMatches"
  | "toChannel"
  | "toService"
>

/**
 * The connected home in memory, with the indexes that answer selectors: by id, by service, by tag, by
 * kind. A query starts from the smallest candidate set its constraints allow and checks the rest on
 * each candidate, so its cost follows the size of its answer, not of the home.
 *
 * Tags belong to ids, not to connections: the tag maps hold tags of ids that are not connected too,
 * so that a device coming back gets its tags back.
 */
export class HomeIndex {
  private readonly services = new Map<ServiceId, ServiceRecord>()
  private readonly channels = new Map<ChannelId, StoredChannel>()
  /** The records of `channels`, as a set: the candidates of a selector that constrains nothing indexed. */
  private readonly allChannels = new Set<StoredChannel>()
  private readonly serviceTags = new TagSets<ServiceId>()
  private readonly channelTags = new TagSets<ChannelId>()
  /** Connected things only. */
  private readonly servicesByTag = new Map<Tag, Set<ServiceId>>()
  // Records, not ids: a large candidate set is then walked without a lookup per member.
  private readonly channelsByTag = new Map<Tag, Set<ChannelRecord>>()
  private readonly channelsByKind = new Map<string, Set<ChannelRecord>>()
  /** Every connected channel in id order, built on the first query after a topology change. */
  private sortedChannels: ReadonlyArray<ChannelRecord> | undefined

  // ---- reading

  service(id: ServiceId): ServiceRecord | undefined {
    return this.services.get(id)
  }

  channel(id: ChannelId): ChannelRecord | undefined {
    return this.channels.get(id)
  }

  tagsOfService(id: ServiceId): ReadonlySet<Tag> {
    return this.serviceTags.of(id)
  }

  tagsOfChannel(id: ChannelId): ReadonlySet<Tag> {
    return this.channelTags.of(id)
  }

  // ---- topology

  /** Connects or replaces a service and its channels (the index keeps copies). The caller has checked ids do not collide. */
  putService(service: ServiceRecord, records: ReadonlyArray<ChannelRecord>): void {
    this.removeService(service.id)
    this.sortedChannels = undefined
    this.services.set(service.id, service)
    for (const tag of this.tagsOfService(service.id)) link(this.servicesByTag, tag, service.id)
    for (const record of records) {
      const channel: StoredChannel = { ...record }
      this.channels.set(channel.id, channel)
      this.allChannels.add(channel)
      link(this.channelsByKind, channel.kindKey, channel)
      for (const tag of this.tagsOfChannel(channel.id)) link(this.channelsByTag, tag, channel)
    }
  }

  /** Disconnects a service; returns the channels it had. Its tags stay with its ids. */
  removeService(id: ServiceId): ReadonlyArray<ChannelRecord> {
    const service = this.services.get(id)
    if (service === undefined) return []
    this.services.delete(id)
    this.sortedChannels = undefined
    for (const tag of this.tagsOfService(id)) unlink(this.servicesByTag, tag, id)
    const removed: Array<ChannelRecord> = []
    for (const channelId of [...service.getters, ...service.setters]) {
      const channel = this.channels.get(channelId)
      if (channel === undefined) continue
      removed.push(channel)
      this.channels.delete(channelId)
      this.allChannels.delete(channel)
      unlink(this.channelsByKind, channel.kindKey, channel)
      for (const tag of this.tagsOfChannel(channelId)) unlink(this.channelsByTag, tag, channel)
    }
    return removed
  }

  // ---- what devices said

  /** A device said something for a connected channel at `at`: its `lastSeen`. */
  markSeen(id: ChannelId, at: Timestamp): void {
    const channel = this.channels.get(id)
    if (channel !== undefined) channel.lastSeen = at
  }

  /** A connected channel's value changed at `at`: its `lastValue` and `updated`. */
  markValue(id: ChannelId, value: Value, at: Timestamp): void {
    const channel = this.channels.get(id)
    if (channel === undefined) return
    channel.lastValue = Option.some(value)
    channel.updated = at
  }

  /** A value was sent to a connected setter at `at`: its `updated` and `lastSeen`. */
  markSent(id: ChannelId, at: Timestamp): void {
    const channel = this.channels.get(id)
    if (channel === undefined) return
    channel.updated = at
    channel.lastSeen = at
  }

  // ---- tags

  /** A client adds or removes tags on a service id (connected or not). */
  retagService(id: ServiceId, tags: ReadonlyArray<Tag>, add: boolean): void {
    const changed = this.serviceTags.edit(id, tags, add)
    if (add) this.indexServiceTags(id, changed, [])
    else this.indexServiceTags(id, [], changed)
  }

  /** A client adds or removes tags on a channel id (connected or not). */
  retagChannel(id: ChannelId, tags: ReadonlyArray<Tag>, add: boolean): void {
    const changed = this.channelTags.edit(id, tags, add)
    if (add) this.indexChannelTags(id, changed, [])
    else this.indexChannelTags(id, [], changed)
  }

  /** A service's device declares its tags (at connect or update): see TagSets. */
  declareServiceTags(id: ServiceId, tags: ReadonlyArray<Tag>): void {
    const { added, removed } = this.serviceTags.declare(id, tags)
    this.indexServiceTags(id, added, removed)
  }

  /** A channel's device declares its tags (at connect or update): see TagSets. */
  declareChannelTags(id: ChannelId, tags: ReadonlyArray<Tag>): void {
    const { added, removed } = this.channelTags.declare(id, tags)
    this.indexChannelTags(id, added, removed)
  }

  private indexServiceTags(id: ServiceId, added: ReadonlyArray<Tag>, removed: ReadonlyArray<Tag>): void {
    if (!this.services.has(id)) return
    for (const tag of added) link(this.servicesByTag, tag, id)
    for (const tag of removed) unlink(this.servicesByTag, tag, id)
  }

  private indexChannelTags(id: ChannelId, added: ReadonlyArray<Tag>, removed: ReadonlyArray<Tag>): void {
    const channel = this.channels.get(id)
    if (channel === undefined) return
    for (const tag of added) link(this.channelsByTag, tag, channel)
    for (const tag of removed) unlink(this.channelsByTag, tag, channel)
  }

  // ---- selecting

  /** The connected channels any selector matches (OR), sorted by id. `[]` matches nothing. */
  selectChannels(selectors: ReadonlyArray<ChannelSelector>): ReadonlyArray<ChannelRecord> {
    const candidates = selectors.map((selector) => this.candidateChannels(selector))
    const count = candidates.reduce((sum, set) => sum + set.size, 0)
    if (count * Math.log2(count) > this.channels.size) {
      // Sorting this many would cost more than walking the whole home, which is kept in id order.
      return this.channelsInIdOrder().filter((channel) => selectors.some((s) => this.channelMatches(s, channel)))
    }
    const [only, ...others] = selectors
    if (only !== undefined && others.length === 0) {
      // One selector: its candidates are distinct, no need to collect them by id.
      return [...candidates[0] ?? EMPTY].filter((channel) => this.channelMatches(only, channel)).sort(byId)
    }
    const found = new Map<ChannelId, ChannelRecord>()
    selectors.forEach((selector, i) => {
      for (const channel of candidates[i] ?? EMPTY) {
        if (!found.has(channel.id) && this.channelMatches(selector, channel)) found.set(channel.id, channel)
      }
    })
    return [...found.values()].sort(byId)
  }

  /** The connected services any selector matches (OR), sorted by id. */
  selectServices(selectors: ReadonlyArray<ServiceSelector>): ReadonlyArray<ServiceRecord> {
    const found = new Map<ServiceId, ServiceRecord>()
    for (const selector of selectors) {
      for (const service of this.candidateServices(selector)) {
        if (!found.has(service.id) && this.serviceMatches(selector, service)) found.set(service.id, service)
      }
    }
    return [...found.values()].sort(byId)
  }

  channelMatches(selector: ChannelSelector, channel: ChannelRecord): boolean {
    return satisfies(selector.id, channel.id, same) &&
      satisfies(selector.service, channel.service, same) &&
      satisfies(selector.mechanism, channel.mechanism, same) &&
      satisfies(selector.kind, channel.kind, kindEquals) &&
      (selector.tags.length === 0 || carriesAll(this.tagsOfChannel(channel.id), selector.tags)) &&
      (selector.serviceTags.length === 0 || carriesAll(this.tagsOfService(channel.service), selector.serviceTags))
  }

  serviceMatches(selector: ServiceSelector, service: ServiceRecord): boolean {
    return satisfies(selector.id, service.id, same) &&
      carriesAll(this.tagsOfService(service.id), selector.tags) &&
      selector.getters.every((g) => service.getters.some((id) => this.channelMatchesId(g, id))) &&
      selector.setters.every((s) => service.setters.some((id) => this.channelMatchesId(s, id)))
  }

  private channelMatchesId(selector: ChannelSelector, id: ChannelId): boolean {
    const channel = this.channels.get(id)
    return channel !== undefined && this.channelMatches(selector, channel)
  }

  private channelsInIdOrder(): ReadonlyArray<ChannelRecord> {
    this.sortedChannels ??= [...this.channels.values()].sort(byId)
    return this.sortedChannels
  }

  /** The smallest set of channels that can hold every match of `selector`. */
  private candidateChannels(selector: ChannelSelector): ReadonlySet<ChannelRecord> {
    if (selectsNothing(selector)) return EMPTY
    if (selector.id._tag === "Exactly") {
      const channel = this.channels.get(selector.id.value)
      return channel === undefined ? EMPTY : new Set([channel])
    }
    const sets: Array<ReadonlySet<ChannelRecord>> = []
    if (selector.service._tag === "Exactly") {
      const service = this.services.get(selector.service.value)
      if (service === undefined) return EMPTY
      sets.push(this.channelsOf([service.id]))
    }
    if (selector.kind._tag === "Exactly") sets.push(this.channelsByKind.get(kindKey(selector.kind.value)) ?? EMPTY)
    for (const tag of selector.tags) sets.push(this.channelsByTag.get(tag) ?? EMPTY)
    const owners = this.smallestTagSet(selector.serviceTags)
    if (owners !== undefined) sets.push(this.channelsOf(owners))
    return smallestOf(sets) ?? this.allChannels
  }

  private candidateServices(selector: ServiceSelector): Iterable<ServiceRecord> {
    if (selector.id._tag === "Conflict") return []
    if (selector.id._tag === "Exactly") {
      const service = this.services.get(selector.id.value)
      return service === undefined ? [] : [service]
    }
    const sets: Array<ReadonlySet<ServiceId>> = []
    const tagged = this.smallestTagSet(selector.tags)
    if (tagged !== undefined) sets.push(tagged)
    // A service with a required channel owns one of that channel selector's matches.
    for (const channelSelector of [...selector.getters, ...selector.setters]) {
      const owners = new Set<ServiceId>()
      for (const channel of this.candidateChannels(channelSelector)) {
        if (this.channelMatches(channelSelector, channel)) owners.add(channel.service)
      }
      sets.push(owners)
    }
    const smallest = smallestOf(sets)
    if (smallest === undefined) return this.services.values()
    const out: Array<ServiceRecord> = []
    for (const id of smallest) {
      const service = this.services.get(id)
      if (service !== undefined) out.push(service)
    }
    return out
  }

  private smallestTagSet(tags: ReadonlyArray<Tag>): ReadonlySet<ServiceId> | undefined {
    return smallestOf(tags.map((tag) => this.servicesByTag.get(tag) ?? EMPTY))
  }

  private channelsOf(services: Iterable<ServiceId>): ReadonlySet<ChannelRecord> {
    const out = new Set<ChannelRecord>()
    for (const id of services) {
      const service = this.services.get(id)
      if (service === undefined) continue
      for (const channelId of [...service.getters, ...service.setters]) {
        const channel = this.channels.get(channelId)
        if (channel !== undefined) out.add(channel)
      }
    }
    return out
  }

  // ---- resources

  toChannel(record: ChannelRecord): Channel {
    return {
      id: record.id,
      service: record.service,
      adapter: record.adapter,
      mechanism: record.mechanism,
      kind: record.kind,
      tags: [...this.tagsOfChannel(record.id)].sort(),
      updated: record.updated,
      lastSeen: record.lastSeen,
      pushMs: record.pushMs
    }
  }

  toService(record: ServiceRecord): Service {
    const channels = (ids: ReadonlyArray<ChannelId>): Array<Channel> => {
      const out: Array<Channel> = []
      for (const id of ids) {
        const channel = this.channels.get(id)
        if (channel !== undefined) out.push(this.toChannel(channel))
      }
      return out
    }
    return {
      id: record.id,
      adapter: record.adapter,
      tags: [...this.tagsOfService(record.id)].sort(),
      properties: record.properties,
      getters: channels(record.getters),
      setters: channels(record.setters)
    }
  }
}

const carriesAll = (carried: ReadonlySet<Tag>, wanted: ReadonlyArray<Tag>): boolean =>
  wanted.every((tag) => carried.has(tag))

const smallestOf = <A>(sets: ReadonlyArray<ReadonlySet<A>>): ReadonlySet<A> | undefined =>
  sets.reduce<ReadonlySet<A> | undefined>((min, set) => (min === undefined || set.size < min.size ? set : min), undefined)
