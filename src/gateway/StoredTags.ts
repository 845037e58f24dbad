import * as Schema from "effect/Schema"
import { ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
import type { TagChange, TagsByOwner } from "./TagStore.ts"

/** What a TagStore gives back, checked: the store keeps plain strings, and a row no longer valid as an id or a tag is left out, not trusted. */
export interface StoredTags {
  readonly service: ReadonlyMap<ServiceId, ReadonlyArray<Tag>>
  readonly channel: ReadonlyMap<ChannelId, ReadonlyArray<Tag>>
  /** How many ids or tags were left out. */
  readonly skipped: number
}

const isServiceId = Schema.is(ServiceId)
const isChannelId = Schema.is(ChannelId)
const isTag = Schema.is(Tag)

/** Every kept tag, checked. */
export const checkedTags = (persisted: TagsByOwner): StoredTags => {
  let skipped = 0
  const valid = <A>(is: (u: unknown) => u is A, items: Iterable<string>): Array<A> =>
    [...items].filter((item): item is string & A => {
      if (is(item)) return true
      skipped++
      return false
    })
  const service = new Map<ServiceId, ReadonlyArray<Tag>>()
  for (const [id, tags] of persisted.service) for (const valid_id of valid(isServiceId, [id])) service.set(valid_id, valid(isTag, tags))
  const channel = new Map<ChannelId, ReadonlyArray<Tag>>()
  for (const [id, tags] of persisted.channel) for (const valid_id of valid(isChannelId, [id])) channel.set(valid_id, valid(isTag, tags))
  return { service, channel, skipped }
}

/** A change told by another process, checked as a load is: its valid ids and tags. */
export const checkedChange = (change: TagChange) => ({
  services: change.ownerKind === "service" ? change.ids.filter(isServiceId) : [],
  channels: change.ownerKind === "channel" ? change.ids.filter(isChannelId) : [],
  tags: change.tags.filter(isTag),
  added: change.added
})

/** Per id, the client tags to take off and to put on so that what memory holds becomes what the store keeps. */
export const tagsToMend = <Id>(held: ReadonlyMap<Id, ReadonlySet<Tag>>, kept: ReadonlyMap<Id, ReadonlyArray<Tag>>) =>
  [...new Set([...held.keys(), ...kept.keys()])].flatMap((id) => {
    const now = held.get(id) ?? new Set<Tag>()
    const wanted = new Set(kept.get(id) ?? [])
    const gone = [...now].filter((tag) => !wanted.has(tag))
    const come = [...wanted].filter((tag) => !now.has(tag))
    return gone.length === 0 && come.length === 0 ? [] : [{ id, gone, come }]
  })
