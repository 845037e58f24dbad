import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type { WatchEvent } from "../domain/Watch.ts"

/**
 * How far a watcher may fall behind (docs/watching.md, "Slow consumers"): at most this many events wait
 * for it besides what its registrations produced (their additions, removals and current values, which a
 * registration may make as many as it has channels). When one more arrives, the queue coalesces; if
 * coalescing leaves more than `WATCH_QUEUE_RESUME` events (again besides the registrations' own), the
 * watcher is dropped.
 */
export const WATCH_QUEUE_LIMIT = 1_024
/** What coalescing must get the queue down to, so that it never runs again after each single event. */
export const WATCH_QUEUE_RESUME = 768

/** The watcher fell further behind than coalescing could absorb. */
export class WatcherOverflow extends Data.TaggedError("WatcherOverflow")<{ readonly limit: number }> {
  override get message(): string {
    return `the client fell behind by more than ${this.limit} events, even keeping only the latest value per channel`
  }
}

/**
 * Keeps, of the values of each channel, only the latest; every topology event and refusal stays, and
 * the order of what stays is kept (so per channel too). Returns a new array.
 */
export const coalesce = (events: ReadonlyArray<WatchEvent>): Array<WatchEvent> => {
  const later = new Set<string>()
  const kept: Array<WatchEvent> = []
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]
    if (event === undefined) continue
    if (event._tag === "ValueChanged") {
      if (later.has(event.channel)) continue
      later.add(event.channel)
    }
    kept.push(event)
  }
  return kept.reverse()
}

/**
 * The events waiting for one watcher: bounded, coalescing when full, failed for good when even that is
 * not enough. `push` is synchronous (the watch hub calls it for every watcher in one step); the consumer
 * takes everything pending at once, or a slice of it (`poll`).
 *
 * A registration's own events (`pushRegistration`) are let in whatever the limit: the limit is for a
 * consumer that stops taking them, not for the size of what it asked for. They are counted apart
 * (`registered`) until taken, so that the limit applies to what comes besides them.
 */
export class WatchQueue {
  /** The pending events are `pending[head…]`: taking a slice moves `head` instead of copying the rest. */
  private pending: Array<WatchEvent> = []
  private head = 0
  /**
   * At least how many of the pending events are registrations' own. Taken or coalesced away, they are
   * not told apart from the others: the count is only lowered to what remains, so that it may count a few
   * too many (the events that came after them), never more than the registrations produced.
   */
  private registered = 0
  private waiter: ((batch: Effect.Effect<ReadonlyArray<WatchEvent>, WatcherOverflow>) => void) | undefined
  private overflow: WatcherOverflow | undefined
  /** Told, synchronously, that events (or the overflow) are waiting: for a consumer that polls. */
  private listener: (() => void) | undefined

  constructor(readonly limit: number = WATCH_QUEUE_LIMIT, readonly resume: number = WATCH_QUEUE_RESUME) {}

  get size(): number {
    return this.pending.length - this.head
  }

  /** Whether the watcher fell too far behind, without taking anything (`poll` would). */
  get overflowed(): boolean {
    return this.overflow !== undefined
  }

  push(event: WatchEvent): void {
    if (this.overflow !== undefined) return
    this.pending.push(event)
    this.bound()
    this.wake()
  }

  /**
   * The events of one registration, in order, let in whatever the limit. At most `bound` of the
   * registrations' own events are let in so (3 per channel the registration touches: an addition, its
   * refusal and its current value): a consumer that keeps registering without reading cannot grow the
   * queue without end; the rest counts against the limit. Let in at once, with one wake-up: a
   * registration of a large home makes tens of thousands.
   */
  pushRegistration(events: ReadonlyArray<WatchEvent>, bound: number): void {
    if (this.overflow !== undefined || events.length === 0) return
    this.registered = Math.min(this.registered + events.length, bound)
    for (const event of events) this.pending.push(event)
    this.bound()
    this.wake()
  }

  /** What is pending (at most `max` events, the oldest), possibly nothing, without waiting; the overflow once it happened. */
  poll(max = Infinity): Result.Result<ReadonlyArray<WatchEvent>, WatcherOverflow> {
    if (this.overflow !== undefined) return Result.fail(this.overflow)
    return Result.succeed(this.takeUpTo(max))
  }

  /** Calls `listener` after every push from now on (the consumer then polls when it is ready). */
  listen(listener: () => void): void {
    this.listener = listener
  }

  /** Everything pending (at least one event), waiting for some if there is none. */
  readonly take: Effect.Effect<ReadonlyArray<WatchEvent>, WatcherOverflow> = Effect.callback((resume) => {
    this.waiter = resume
    this.wake()
    return Effect.sync(() => {
      if (this.waiter === resume) this.waiter = undefined
    })
  })

  private wake(): void {
    this.listener?.()
    const resume = this.waiter
    if (resume === undefined) return
    if (this.overflow !== undefined) {
      this.waiter = undefined
      resume(Effect.fail(this.overflow))
    } else if (this.size > 0) {
      this.waiter = undefined
      resume(Effect.succeed(this.takeUpTo(Infinity)))
    }
  }

  /** Coalesces past the limit (besides the registrations' own), and fails for good if that is not enough. */
  private bound(): void {
    if (this.size <= this.limit + this.registered) return
    this.pending = coalesce(this.pending.slice(this.head))
    this.head = 0
    this.registered = Math.min(this.registered, this.pending.length)
    if (this.pending.length > this.resume + this.registered) {
      this.pending = []
      this.registered = 0
      this.overflow = new WatcherOverflow({ limit: this.limit })
    }
  }

  /** Takes the oldest `max` pending events (all of them when fewer). */
  private takeUpTo(max: number): ReadonlyArray<WatchEvent> {
    let batch: Array<WatchEvent>
    if (this.size <= max) {
      batch = this.head === 0 ? this.pending : this.pending.slice(this.head)
      this.pending = []
      this.head = 0
    } else {
      batch = this.pending.slice(this.head, this.head + max)
      this.head += max
      // What was taken is dropped once it is most of the array: each event is copied at most once more.
      if (this.head * 2 > this.pending.length) {
        this.pending = this.pending.slice(this.head)
        this.head = 0
      }
    }
    this.registered = Math.min(this.registered, this.size)
    return batch
  }
}
