import type { Channel } from "../domain/Channel.ts"
import type { AdapterId, ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
import type { Service } from "../domain/Service.ts"
import type { ChannelRecord, HomeStore, ServiceRecord } from "./HomeStore.ts"

/** A stored channel as clients see it (the domain's `Channel`), with its tags sorted. */
export const toChannel = (home: HomeStore, record: ChannelRecord): Channel => ({
  id: record.id,
  service: record.service,
  adapter: record.adapter,
  mechanism: record.mechanism,
  kind: record.kind,
  tags: home.sortedTagsOfChannel(record.id),
  updated: record.updated,
  lastSeen: record.lastSeen,
  pushMs: record.pushMs
})

/** The connected channels among `ids`, as clients see them, in the order of `ids`. */
const channelsOf = (home: HomeStore, ids: ReadonlyArray<ChannelId>): Array<Channel> => {
  const out: Array<Channel> = []
  for (const id of ids) {
    const channel = home.channel(id)
    if (channel !== undefined) out.push(toChannel(home, channel))
  }
  return out
}

/** A stored service as clients see it (the domain's `Service`), with its connected channels. */
export const toService = (home: HomeStore, record: ServiceRecord): Service => ({
  id: record.id,
  adapter: record.adapter,
  tags: home.sortedTagsOfService(record.id),
  properties: record.properties,
  getters: channelsOf(home, record.getters),
  setters: channelsOf(home, record.setters)
})

/**
 * A stored service as clients see it, whose channels are made each time they are read, from the home as
 * it is then: a listing of the whole home (WholeHome) holds one per service, and its answer makes each
 * service's channels as it writes it, so that they die young instead of a large home's 100,000 channels
 * all living through the listing (bench/RESULTS.md, session 50: most of its first listing's cost was the
 * collector copying them, and the young generation growing to hold them).
 */
export class ServiceOnRead implements Service {
  readonly id: ServiceId
  readonly adapter: AdapterId
  readonly tags: ReadonlyArray<Tag>
  readonly properties: Readonly<Record<string, string>>
  // Own properties, as a plain service's are (JSON, spreads and comparisons see them), defined by the constructor.
  declare readonly getters: ReadonlyArray<Channel>
  declare readonly setters: ReadonlyArray<Channel>
  readonly #home: HomeStore
  readonly #record: ServiceRecord

  /** The channel lists' accessors, shared by every such service: one shape in V8 for all, some 80 bytes each. */
  static readonly #channelLists: PropertyDescriptorMap = {
    getters: {
      enumerable: true,
      get(this: ServiceOnRead) {
        return channelsOf(this.#home, this.#record.getters)
      }
    },
    setters: {
      enumerable: true,
      get(this: ServiceOnRead) {
        return channelsOf(this.#home, this.#record.setters)
      }
    }
  }

  constructor(home: HomeStore, record: ServiceRecord) {
    this.id = record.id
    this.adapter = record.adapter
    this.tags = home.sortedTagsOfService(record.id)
    this.properties = record.properties
    this.#home = home
    this.#record = record
    Object.defineProperties(this, ServiceOnRead.#channelLists)
  }
}
