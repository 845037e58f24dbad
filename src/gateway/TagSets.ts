import { normalizeTags, type Tag } from "../domain/Identifier.ts"
import { EMPTY, link, unlink } from "./Multimap.ts"

/** How many distinct tag sets are remembered for sharing before the pool starts afresh. */
const poolLimit = 4_096

/**
 * The tags of one kind of thing (services, or channels) by id, from two sources seen as one set: the
 * tags clients put on it (persisted, docs/reference.md §6.5) and the tags its device declares when it connects or
 * changes (a home file's `tags`). A device that stops declaring a tag takes it away, unless a client
 * put it there too; a client that removes a tag removes it whatever its source, and a declared tag a
 * client removed stays away while the device goes on declaring it: until the device declares without
 * it, or disconnects (it then declares nothing) and comes back.
 *
 * So an id carries (declared − withdrawn) ∪ put by clients. What a connected thing declares is kept on
 * its record, where `declaredOf` finds it (nothing for a thing not connected): a large home's 100,000
 * channels add no map entry each here. The sets declared and carried are never changed, only replaced,
 * and equal ones are shared: the channels of a large home carry a few distinct sets between them, not
 * one each (a set costs some 150 bytes). An id no client changed carries what its device declared: only
 * the ids clients changed have a carried set of their own.
 */
export class TagSets<Id> {
  private readonly byClient = new Map<Id, Set<Tag>>()
  /** Declared tags a client removed since they were declared. */
  private readonly withdrawn = new Map<Id, Set<Tag>>()
  /** What the ids clients changed carry (their declaration, less what was withdrawn, with what clients put). */
  private readonly carried = new Map<Id, ReadonlySet<Tag>>()
  /** Tag sets in use, by their sorted tags: where an equal set is found to share. */
  private readonly pool = new Map<string, ReadonlySet<Tag>>()
  /**
   * The set of each list declared, by the list itself: a device's channels often declare one list
   * between many (a home file's equal lists are one), found again without a key made per channel.
   */
  private readonly ofList = new WeakMap<ReadonlyArray<Tag>, ReadonlySet<Tag>>()
  /** The sorted list of each set in use, made when first asked for (sets are never changed). */
  private readonly sorted = new WeakMap<ReadonlySet<Tag>, ReadonlyArray<Tag>>()

  /** `declaredOf` answers what the thing of an id declares now: its record's, `EMPTY` if not connected. */
  constructor(private readonly declaredOf: (id: Id) => ReadonlySet<Tag>) {}

  of(id: Id): ReadonlySet<Tag> {
    return this.carried.get(id) ?? this.declaredOf(id)
  }

  /** The tags of `id`, sorted: one list per set in use, shared like the set (listings hold one per thing). */
  sortedOf(id: Id): ReadonlyArray<Tag> {
    const set = this.of(id)
    let sorted = this.sorted.get(set)
    if (sorted === undefined) {
      sorted = [...set].sort()
      this.sorted.set(set, sorted)
    }
    return sorted
  }

  /** The tags clients put on each id (those a store keeps). */
  byClients(): ReadonlyMap<Id, ReadonlySet<Tag>> {
    return this.byClient
  }

  /** A client adds or removes `tags`; answers those that came or went. */
  edit(id: Id, tags: ReadonlyArray<Tag>, add: boolean): ReadonlyArray<Tag> {
    const before = this.of(id)
    const declared = this.declaredOf(id)
    for (const tag of tags) {
      if (add) {
        link(this.byClient, id, tag)
        unlink(this.withdrawn, id, tag)
      } else {
        unlink(this.byClient, id, tag)
        if (declared.has(tag)) link(this.withdrawn, id, tag)
      }
    }
    const now = this.carry(id)
    return [...new Set(tags)].filter((tag) => before.has(tag) !== now.has(tag))
  }

  /** The set a device's declared list stands for, to keep on its record: equal lists share one. */
  declaredSet(tags: ReadonlyArray<Tag>): ReadonlySet<Tag> {
    let set = this.ofList.get(tags)
    if (set === undefined) {
      set = this.shared(tags)
      this.ofList.set(tags, set)
    }
    return set
  }

  /**
   * What `id` declares changed from `before` to what `declaredOf` answers now (its device connected,
   * changed or left). Only a change of declaration counts: a tag declared before and now keeps whatever
   * clients did to it meanwhile.
   */
  redeclared(id: Id, before: ReadonlySet<Tag>): void {
    if (this.withdrawn.size > 0) {
      const now = this.declaredOf(id)
      for (const tag of before) if (!now.has(tag)) unlink(this.withdrawn, id, tag)
    }
    // Only an id a client changed carries a set of its own (see `carry`), to work out again: the others,
    // all of a home connecting at start, carry their declaration as it is.
    if (this.carried.size > 0 && this.carried.has(id)) this.carry(id)
  }

  /**
   * Sets what `id` carries from its sources; answers it. An id has a carried set of its own exactly when
   * clients put or withdrew tags on it.
   */
  private carry(id: Id): ReadonlySet<Tag> {
    const declared = this.declaredOf(id)
    const withdrawn = this.withdrawn.get(id)
    const byClient = this.byClient.get(id)
    if (withdrawn === undefined && byClient === undefined) {
      this.carried.delete(id)
      return declared
    }
    // Kept even when empty: it stands for a declaration whose every tag a client withdrew.
    const carried = this.shared([...declared].filter((tag) => withdrawn?.has(tag) !== true).concat([...(byClient ?? [])]))
    this.carried.set(id, carried)
    return carried
  }

  /** The set of `tags` in use, or a new one, now in use. */
  private shared(tags: ReadonlyArray<Tag>): ReadonlySet<Tag> {
    if (tags.length === 0) return EMPTY
    const key = JSON.stringify(normalizeTags(tags))
    const known = this.pool.get(key)
    if (known !== undefined) return known
    // The pool only finds sets to share: starting it afresh forgets none of the sets ids carry.
    if (this.pool.size >= poolLimit) this.pool.clear()
    const set = new Set(tags)
    this.pool.set(key, set)
    return set
  }
}
