import type { ServiceId, Tag } from "../domain/Identifier.ts"
import { link, unlink } from "./Multimap.ts"

/** What the indexes hold of a channel: the record itself, which its id and kind key name. */
interface Indexed {
  readonly id: string
  readonly kindKey: string
}

/**
 * Where a selector's candidates come from (SelectorPlan): every connected channel, the connected
 * channels by tag and by kind, the connected services by tag. Records, not ids: a large candidate set
 * is then walked without a lookup per member. HomeStore builds them when a selector first needs them,
 * not while a home connects (a large home's start listed its services before any selector was asked),
 * and keeps them up to date from then on.
 */
export class CandidateIndexes<Channel extends Indexed> {
  /** The connected channels, as a set: the candidates of a selector that constrains nothing indexed. */
  readonly channels = new Set<Channel>()
  readonly servicesByTag = new Map<Tag, Set<ServiceId>>()
  readonly channelsByTag = new Map<Tag, Set<Channel>>()
  readonly channelsByKind = new Map<string, Set<Channel>>()

  addService(id: ServiceId, tags: Iterable<Tag>): void {
    for (const tag of tags) link(this.servicesByTag, tag, id)
  }

  removeService(id: ServiceId, tags: Iterable<Tag>): void {
    for (const tag of tags) unlink(this.servicesByTag, tag, id)
  }

  addChannel(channel: Channel, tags: Iterable<Tag>): void {
    this.channels.add(channel)
    link(this.channelsByKind, channel.kindKey, channel)
    for (const tag of tags) link(this.channelsByTag, tag, channel)
  }

  removeChannel(channel: Channel, tags: Iterable<Tag>): void {
    this.channels.delete(channel)
    unlink(this.channelsByKind, channel.kindKey, channel)
    for (const tag of tags) unlink(this.channelsByTag, tag, channel)
  }

  retagService(id: ServiceId, added: ReadonlyArray<Tag>, removed: ReadonlyArray<Tag>): void {
    this.addService(id, added)
    this.removeService(id, removed)
  }

  retagChannel(channel: Channel, added: ReadonlyArray<Tag>, removed: ReadonlyArray<Tag>): void {
    for (const tag of added) link(this.channelsByTag, tag, channel)
    for (const tag of removed) unlink(this.channelsByTag, tag, channel)
  }
}
