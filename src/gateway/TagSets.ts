import type { Tag } from "../domain/Identifier.ts"
import { EMPTY, link, unlink } from "./Multimap.ts"

/**
 * The tags of one kind of thing (services, or channels) by id, from two sources seen as one set: the
 * tags clients put on it (persisted, docs/reference.md §6.5) and the tags its device declares when it connects or
 * changes (a home file's `tags`). A device that stops declaring a tag takes it away, unless a client
 * put it there too; a client that removes a tag removes it whatever its source, and a declared tag a
 * client removed stays away while the device goes on declaring it: until the device declares without
 * it, or disconnects (an empty declaration) and comes back.
 */
export class TagSets<Id> {
  private readonly byClient = new Map<Id, Set<Tag>>()
  /** What each device declared last, whatever clients did since. */
  private readonly declared = new Map<Id, ReadonlySet<Tag>>()
  /** Declared tags a client removed since they were declared. */
  private readonly withdrawn = new Map<Id, Set<Tag>>()
  private readonly carried = new Map<Id, Set<Tag>>()

  of(id: Id): ReadonlySet<Tag> {
    return this.carried.get(id) ?? EMPTY
  }

  /** The tags clients put on each id (those a store keeps). */
  byClients(): ReadonlyMap<Id, ReadonlySet<Tag>> {
    return this.byClient
  }

  /** A client adds or removes `tags`; answers those that came or went. */
  edit(id: Id, tags: ReadonlyArray<Tag>, add: boolean): ReadonlyArray<Tag> {
    const changed: Array<Tag> = []
    for (const tag of tags) {
      const had = this.of(id).has(tag)
      if (add) {
        link(this.byClient, id, tag)
        unlink(this.withdrawn, id, tag)
        link(this.carried, id, tag)
      } else {
        unlink(this.byClient, id, tag)
        if (this.declared.get(id)?.has(tag) === true) link(this.withdrawn, id, tag)
        unlink(this.carried, id, tag)
      }
      if (had !== add) changed.push(tag)
    }
    return changed
  }

  /**
   * The device declares its tags anew; answers those that came and those that went. Only a change of
   * declaration counts: a tag declared before and now keeps whatever clients did to it meanwhile.
   */
  declare(id: Id, tags: ReadonlyArray<Tag>): { readonly added: ReadonlyArray<Tag>; readonly removed: ReadonlyArray<Tag> } {
    const before: ReadonlySet<Tag> = this.declared.get(id) ?? EMPTY
    const now = new Set(tags)
    const byClient: ReadonlySet<Tag> = this.byClient.get(id) ?? EMPTY
    const removed: Array<Tag> = []
    for (const tag of before) {
      if (now.has(tag)) continue
      unlink(this.withdrawn, id, tag)
      if (!byClient.has(tag) && this.of(id).has(tag)) {
        unlink(this.carried, id, tag)
        removed.push(tag)
      }
    }
    const added = [...now].filter((tag) => !before.has(tag) && !this.of(id).has(tag))
    for (const tag of added) link(this.carried, id, tag)
    if (now.size === 0) this.declared.delete(id)
    else this.declared.set(id, now)
    return { added, removed }
  }
}
