import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type { WatchEvent } from "../domain/Watch.ts"

/**
 * How far a watcher may fall behind (docs/watching.md, "Slow consumers"): at most this many events wait
 * for it. When one more arrives, the queue coalesces; if coalescing leaves more than
 * `WATCH_QUEUE_RESUME` events, the watcher is dropped.
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
 * takes everything pending at once.
 */
export class WatchQueue {
  private pending: Array<WatchEvent> = []
  private waiter: ((batch: Effect.Effect<ReadonlyArray<WatchEvent>, WatcherOverflow>) => void) | undefined
  private overflow: WatcherOverflow | undefined
  /** Told, synchronously, that events (or the overflow) are waiting: for a consumer that polls. */
  private listener: (() => void) | undefined

  constructor(readonly limit: number = WATCH_QUEUE_LIMIT, readonly resume: number = WATCH_QUEUE_RESUME) {}

  get size(): number {
    return this.pending.length
  }

  /** Whether the watcher fell too far behind, without taking anything (`poll` would). */
  get overflowed(): boolean {
    return this.overflow !== undefined
  }

  push(event: WatchEvent): void {
    if (this.overflow !== undefined) return
    this.pending.push(event)
    if (this.pending.length > this.limit) {
      this.pending = coalesce(this.pending)
      if (this.pending.length > this.resume) {
        this.pending = []
        this.overflow = new WatcherOverflow({ limit: this.limit })
      }
    }
    this.wake()
  }

  /** Everything pending, possibly nothing, without waiting; the overflow once it happened. */
  poll(): Result.Result<ReadonlyArray<WatchEvent>, WatcherOverflow> {
    if (this.overflow !== undefined) return Result.fail(this.overflow)
    const batch = this.pending
    this.pending = []
    return Result.succeed(batch)
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
    } else if (this.pending.length > 0) {
      this.waiter = undefined
      const batch = this.pending
      this.pending = []
      resume(Effect.succeed(batch))
    }
  }
}
