import * as Option from "effect/Option"
import type { Timestamp } from "../domain/Channel.ts"
import type { AdapterId, ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
import type { Kind } from "../domain/Kind.ts"
import { byId } from "../domain/ListOrder.ts"
import type { Mechanism } from "../domain/Mechanism.ts"
import type { Value } from "../domain/Value.ts"
import { CandidateIndexes } from "./CandidateIndexes.ts"
import { EMPTY } from "./Multimap.ts"
import { TagSets } from "./TagSets.ts"

/**
 * A connected channel as the gateway keeps it, read-only for everyone: what changes (`updated`,
 * `lastSeen`, `lastValue`) changes through the store's `mark*` methods, which only the Registry calls.
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

/** A connected service as the gateway keeps it; its channels are listed by id, sorted. */
export interface ServiceRecord {
  readonly id: ServiceId
  readonly adapter: AdapterId
  readonly properties: Readonly<Record<string, string>>
  readonly getters: ReadonlyArray<ChannelId>
  readonly setters: ReadonlyArray<ChannelId>
}

/** What the gateway last heard of a channel: the part of its record that changes while it is connected. */
type ChannelState = Pick<ChannelRecord, "updated" | "lastSeen" | "lastValue">

/**
 * A channel record as the store keeps it: its state written by the store alone. A record given to
 * `putService` is kept as it is, not copied: its maker hands it over.
 */
export type NewChannelRecord =
  & Omit<ChannelRecord, keyof ChannelState>
  & { -readonly [K in keyof ChannelState]: ChannelState[K] }
  & Declaring
type StoredChannel = NewChannelRecord

/** A service record as the store keeps it, with the tags its device declares. */
export type NewServiceRecord = ServiceRecord & Declaring

/**
 * The tags a connected thing's device declares (`declaredServiceTags`, `declaredChannelTags`), kept on its
 * record rather than in a map of their own (TagSets); none if not given.
 */
interface Declaring {
  readonly declared?: ReadonlySet<Tag>
}

const noRecords: ReadonlyArray<StoredChannel> = []

/**
 * The connected home in memory: its services and channels by id, their tags, and the indexes a
 * selector's candidates come from (CandidateIndexes: channels by tag and by kind, services by tag),
 * built when a selector first asks for them.
 *
 * Tags belong to ids, not to connections: the tag maps hold tags of ids that are not connected too,
 * so that a device coming back gets its tags back.
 */
export class HomeStore {
  private readonly services = new Map<ServiceId, NewServiceRecord>()
  private readonly channels = new Map<ChannelId, StoredChannel>()
  private readonly serviceTags = new TagSets<ServiceId>((id) => this.services.get(id)?.declared ?? EMPTY)
  private readonly channelTags = new TagSets<ChannelId>((id) => this.channels.get(id)?.declared ?? EMPTY)
  /** Of connected things only; `undefined` until a selector first needs them. */
  private indexes: CandidateIndexes<StoredChannel> | undefined
  private changes = 0
  /** Of `changes`, those of the connected set and the tags: what a selector selects (TopologyVersion). */
  private topologyChanges = 0
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

  /** The tags of a service, sorted; the list is shared, never to be changed. */
  sortedTagsOfService(id: ServiceId): ReadonlyArray<Tag> {
    return this.serviceTags.sortedOf(id)
  }

  /** The tags of a channel, sorted; the list is shared, never to be changed. */
  sortedTagsOfChannel(id: ChannelId): ReadonlyArray<Tag> {
    return this.channelTags.sortedOf(id)
  }

  /** The tags clients put on services, by id: what the TagStore keeps of them. */
  clientServiceTags(): ReadonlyMap<ServiceId, ReadonlySet<Tag>> {
    return this.serviceTags.byClients()
  }

  /** The tags clients put on channels, by id. */
  clientChannelTags(): ReadonlyMap<ChannelId, ReadonlySet<Tag>> {
    return this.channelTags.byClients()
  }

  /** How many channels are connected. */
  get channelCount(): number {
    return this.channels.size
  }

  /** Every connected service. */
  everyService(): Iterable<ServiceRecord> {
    return this.services.values()
  }

  /** Every connected channel, as a set. */
  everyChannel(): ReadonlySet<ChannelRecord> {
    return this.candidates().channels
  }

  /** Every connected channel in id order. */
  channelsInIdOrder(): ReadonlyArray<ChannelRecord> {
    this.sortedChannels ??= [...this.channels.values()].sort(byId)
    return this.sortedChannels
  }

  /** The connected services carrying `tag`. */
  servicesTagged(tag: Tag): ReadonlySet<ServiceId> {
    return this.candidates().servicesByTag.get(tag) ?? EMPTY
  }

  /** The connected channels carrying `tag`. */
  channelsTagged(tag: Tag): ReadonlySet<ChannelRecord> {
    return this.candidates().channelsByTag.get(tag) ?? EMPTY
  }

  /** The connected channels of the kind whose `kindKey` this is. */
  channelsOfKind(kindKey: string): ReadonlySet<ChannelRecord> {
    return this.candidates().channelsByKind.get(kindKey) ?? EMPTY
  }

  /** The candidate indexes, built from the connected home on first use, in the one step that asks. */
  private candidates(): CandidateIndexes<StoredChannel> {
    if (this.indexes === undefined) {
      const indexes = new CandidateIndexes<StoredChannel>()
      for (const id of this.services.keys()) indexes.addService(id, this.tagsOfService(id))
      for (const channel of this.channels.values()) indexes.addChannel(channel, this.tagsOfChannel(channel.id))
      this.indexes = indexes
    }
    return this.indexes
  }

  /** The channels of the connected services among `services`. */
  channelsOf(services: Iterable<ServiceId>): ReadonlySet<ChannelRecord> {
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

  /** How many times the store has changed: what was read of it still holds while this is the same. */
  get version(): number {
    return this.changes
  }

  /**
   * How many times the connected services and channels, or the tags, have changed: what selectors select,
   * and what a watch registration makes of the home but for current values, still holds while this is the same.
   */
  get topologyVersion(): number {
    return this.topologyChanges
  }

  // ---- topology

  /**
   * Connects or replaces a service and its channels (the store keeps the records given), with the tags
   * their device declares now (on the records: see TagSets); a channel it no longer has declares nothing.
   * The caller has checked ids do not collide.
   */
  putService(service: NewServiceRecord, records: ReadonlyArray<NewChannelRecord>): void {
    this.changes++
    this.topologyChanges++
    this.sortedChannels = undefined
    const before = this.services.get(service.id)
    const left = before === undefined ? noRecords : this.disconnect(before)
    this.services.set(service.id, service)
    this.serviceTags.redeclared(service.id, before?.declared ?? EMPTY)
    this.indexes?.addService(service.id, this.tagsOfService(service.id))
    for (const channel of records) this.channels.set(channel.id, channel)
    // A device connecting for the first time (all of a home's at its start) has no declarations to compare.
    const declaredBefore = new Map<ChannelId, ReadonlySet<Tag>>()
    for (const old of left) {
      if (this.channels.has(old.id)) declaredBefore.set(old.id, old.declared ?? EMPTY)
      else this.channelTags.redeclared(old.id, old.declared ?? EMPTY)
    }
    for (const channel of records) {
      this.channelTags.redeclared(channel.id, declaredBefore.get(channel.id) ?? EMPTY)
      this.indexes?.addChannel(channel, this.tagsOfChannel(channel.id))
    }
  }

  /** Disconnects a service; returns the channels it had. Tags clients put stay with their ids; it declares none any more. */
  removeService(id: ServiceId): ReadonlyArray<ChannelRecord> {
    this.changes++
    this.topologyChanges++
    const service = this.services.get(id)
    if (service === undefined) return []
    this.sortedChannels = undefined
    const removed = this.disconnect(service)
    // Gone, it declares nothing: if it comes back, it declares its tags anew.
    this.serviceTags.redeclared(id, service.declared ?? EMPTY)
    for (const channel of removed) this.channelTags.redeclared(channel.id, channel.declared ?? EMPTY)
    return removed
  }

  /** Takes a connected service and its channels out of the maps and the indexes (with the tags they carried); answers its channels. */
  private disconnect(service: NewServiceRecord): ReadonlyArray<StoredChannel> {
    this.indexes?.removeService(service.id, this.tagsOfService(service.id))
    this.services.delete(service.id)
    const removed: Array<StoredChannel> = []
    for (const ids of [service.getters, service.setters]) {
      for (const id of ids) {
        const channel = this.channels.get(id)
        if (channel === undefined) continue
        removed.push(channel)
        this.indexes?.removeChannel(channel, this.tagsOfChannel(id))
        this.channels.delete(id)
      }
    }
    return removed
  }

  // ---- what devices said

  /** A device said something for a connected channel at `at`: its `lastSeen`. */
  markSeen(id: ChannelId, at: Timestamp): void {
    this.changes++
    const channel = this.channels.get(id)
    if (channel !== undefined) channel.lastSeen = at
  }

  /** A connected channel's value changed at `at`: its `lastValue` and `updated`. */
  markValue(id: ChannelId, value: Value, at: Timestamp): void {
    this.changes++
    const channel = this.channels.get(id)
    if (channel === undefined) return
    channel.lastValue = Option.some(value)
    channel.updated = at
  }

  /** A value was sent to a connected setter at `at`: its `updated` and `lastSeen`. */
  markSent(id: ChannelId, at: Timestamp): void {
    this.changes++
    const channel = this.channels.get(id)
    if (channel === undefined) return
    channel.updated = at
    channel.lastSeen = at
  }

  // ---- tags

  /** A client adds or removes tags on a service id (connected or not). */
  retagService(id: ServiceId, tags: ReadonlyArray<Tag>, add: boolean): void {
    this.changes++
    this.topologyChanges++
    const changed = this.serviceTags.edit(id, tags, add)
    if (add) this.indexServiceTags(id, changed, [])
    else this.indexServiceTags(id, [], changed)
  }

  /** A client adds or removes tags on a channel id (connected or not). */
  retagChannel(id: ChannelId, tags: ReadonlyArray<Tag>, add: boolean): void {
    this.changes++
    this.topologyChanges++
    const changed = this.channelTags.edit(id, tags, add)
    if (add) this.indexChannelTags(id, changed, [])
    else this.indexChannelTags(id, [], changed)
  }

  /** The set of tags a service's device declares, from its list: for the record given to `putService`. */
  declaredServiceTags(tags: ReadonlyArray<Tag>): ReadonlySet<Tag> {
    return this.serviceTags.declaredSet(tags)
  }

  /** The set of tags a channel's device declares, from its list: for the record given to `putService`. */
  declaredChannelTags(tags: ReadonlyArray<Tag>): ReadonlySet<Tag> {
    return this.channelTags.declaredSet(tags)
  }

  private indexServiceTags(id: ServiceId, added: ReadonlyArray<Tag>, removed: ReadonlyArray<Tag>): void {
    if (this.indexes !== undefined && this.services.has(id)) this.indexes.retagService(id, added, removed)
  }

  private indexChannelTags(id: ChannelId, added: ReadonlyArray<Tag>, removed: ReadonlyArray<Tag>): void {
    const channel = this.indexes === undefined ? undefined : this.channels.get(id)
    if (channel !== undefined) this.indexes?.retagChannel(channel, added, removed)
  }
}
