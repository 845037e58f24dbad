import type { Tag } from "../domain/Identifier.ts"
import { EMPTY, link, unlink } from "./Multimap.ts"

/**
 * The tags of one kind of thing (services, or channels) by id, from two sources seen as one set: the
 * tags clients put on it (persisted, wire.md §6) and the tags its device declares when it connects or
 * changes (a home file's `tags`). A device that stops declaring a tag takes it away, unless a client
 * put it there too; a client that removes a tag removes it whatever its source.
 */
export class TagSets<Id> {
  private readonly byClient = new Map<Id, Set<Tag>>()
  private readonly byDevice = new Map<Id, Set<Tag>>()
  private readonly carried = new Map<Id, Set<Tag>>()

  of(id: Id): ReadonlySet<Tag> {
    return this.carried.get(id) ?? EMPTY
  }

  /** A client adds or removes `tags`; answers those that came or went. */
  edit(id: Id, tags: ReadonlyArray<Tag>, add: boolean): ReadonlyArray<Tag> {
    const changed: Array<Tag> = []
    for (const tag of tags) {
      const had = this.of(id).has(tag)
      if (add) {
        link(this.byClient, id, tag)
        link(this.carried, id, tag)
      } else {
        unlink(this.byClient, id, tag)
        unlink(this.byDevice, id, tag)
        unlink(this.carried, id, tag)
      }
      if (had !== add) changed.push(tag)
    }
    return changed
  }

  /** The device declares its tags anew; answers those that came and those that went. */
  declare(id: Id, tags: ReadonlyArray<Tag>): { readonly added: ReadonlyArray<Tag>; readonly removed: ReadonlyArray<Tag> } {
    const before: ReadonlySet<Tag> = this.byDevice.get(id) ?? EMPTY
    const declared = new Set(tags)
    const byClient: ReadonlySet<Tag> = this.byClient.get(id) ?? EMPTY
    const removed = [...before].filter((tag) => !declared.has(tag) && !byClient.has(tag))
    for (const tag of removed) unlink(this.carried, id, tag)
    const added = [...declared].filter((tag) => !this.of(id).has(tag))
    for (const tag of added) link(this.carried, id, tag)
    if (declared.size === 0) this.byDevice.delete(id)
    else this.byDevice.set(id, declared)
    return { added, removed }
  }
}
