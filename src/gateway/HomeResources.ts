import type { Channel } from "../domain/Channel.ts"
import type { ChannelId } from "../domain/Identifier.ts"
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

/** A stored service as clients see it (the domain's `Service`), with its connected channels. */
export const toService = (home: HomeStore, record: ServiceRecord): Service => {
  const channels = (ids: ReadonlyArray<ChannelId>): Array<Channel> => {
    const out: Array<Channel> = []
    for (const id of ids) {
      const channel = home.channel(id)
      if (channel !== undefined) out.push(toChannel(home, channel))
    }
    return out
  }
  return {
    id: record.id,
    adapter: record.adapter,
    tags: home.sortedTagsOfService(record.id),
    properties: record.properties,
    getters: channels(record.getters),
    setters: channels(record.setters)
  }
}
