import type { ChannelId } from "../domain/Identifier.ts"
import type { Interest } from "./WatchInterest.ts"

const NONE: ReadonlyMap<ChannelId, Interest> = new Map()

/**
 * The channels one watcher watches, with what it wants of each. It may start from the map of a shared
 * registration answer (RegistrationAnswers), which is never changed: this watcher's own changes are kept
 * beside it, so that a registration of the whole home copies nothing, and a change of one channel copies
 * nothing either.
 */
export class WatchedChannels {
  private base: ReadonlyMap<ChannelId, Interest> = NONE
  /** This watcher's changes over `base`: `undefined` for a channel of `base` it no longer watches. */
  private readonly own = new Map<ChannelId, Interest | undefined>()
  private count = 0

  get size(): number {
    return this.count
  }

  get(id: ChannelId): Interest | undefined {
    if (this.base === NONE) return this.own.get(id)
    const mine = this.own.get(id)
    return mine !== undefined || this.own.has(id) ? mine : this.base.get(id)
  }

  set(id: ChannelId, interest: Interest): void {
    if (this.get(id) === undefined) this.count++
    this.own.set(id, interest)
  }

  delete(id: ChannelId): void {
    if (this.get(id) === undefined) return
    this.count--
    if (this.base.has(id)) this.own.set(id, undefined)
    else this.own.delete(id)
  }

  *keys(): IterableIterator<ChannelId> {
    for (const [id, interest] of this.own) if (interest !== undefined) yield id
    for (const id of this.base.keys()) if (!this.own.has(id)) yield id
  }

  clear(): void {
    this.base = NONE
    this.own.clear()
    this.count = 0
  }

  /** Watches the channels of `shared` as they are there, instead of none: for a watcher that watches none. */
  adopt(shared: ReadonlyMap<ChannelId, Interest>): void {
    this.clear()
    this.base = shared
    this.count = shared.size
  }

  /** The channels watched and the interest in each, as a map of their own (for an answer to share). */
  copy(): ReadonlyMap<ChannelId, Interest> {
    const out = new Map<ChannelId, Interest>()
    for (const id of this.keys()) {
      const interest = this.get(id)
      if (interest !== undefined) out.set(id, interest)
    }
    return out
  }
}
