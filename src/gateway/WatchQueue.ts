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
 * Pending events `events[start…end)`, a stretch of one array the queue holds, taken from it. `shared`: the
 * array is a shared registration answer's (RegistrationAnswers), never changed, the same for every watcher
 * it went to, so that what is made of it (its frames) may be made once. Otherwise the array is the
 * queue's own and may grow after: read the stretch before anything else is pushed.
 */
export interface EventRun {
  readonly events: ReadonlyArray<WatchEvent>
  readonly start: number
  readonly end: number
  readonly shared: boolean
}

/**
 * Pending events `events[start…]`: an array of the queue's own, which `push` appends to (`open`), or one
 * handed over with a registration's events, or a shared answer's (`shared`), neither ever changed.
 */
interface Chunk {
  readonly events: ReadonlyArray<WatchEvent>
  start: number
  readonly open: Array<WatchEvent> | undefined
  readonly shared: boolean
}

/**
 * The events waiting for one watcher: bounded, coalescing when full, failed for good when even that is
 * not enough. `push` is synchronous (the watch hub calls it for every watcher in one step); the consumer
 * takes everything pending at once, or a stretch of it (`poll`, `pollRun`).
 *
 * A registration's own events (`pushRegistration`) are let in whatever the limit: the limit is for a
 * consumer that stops taking them, not for the size of what it asked for. They are counted apart
 * (`registered`) until taken, so that the limit applies to what comes besides them. They are kept as the
 * array given, not copied: a shared answer's twenty thousand events are one reference in each queue.
 */
export class WatchQueue {
  /** The pending events, oldest first: taking a stretch moves a chunk's `start` instead of copying the rest. */
  private chunks: Array<Chunk> = []
  private count = 0
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
    return this.count
  }

  /** Whether the watcher fell too far behind, without taking anything (`poll` would). */
  get overflowed(): boolean {
    return this.overflow !== undefined
  }

  push(event: WatchEvent): void {
    if (this.overflow !== undefined) return
    const last = this.chunks[this.chunks.length - 1]
    if (last?.open !== undefined) last.open.push(event)
    else this.chunks.push(openChunk([event]))
    this.count++
    this.bound()
    this.wake()
  }

  /**
   * The events of one registration, in order, let in whatever the limit. At most `bound` of the
   * registrations' own events are let in so (3 per channel the registration touches: an addition, its
   * refusal and its current value): a consumer that keeps registering without reading cannot grow the
   * queue without end; the rest counts against the limit. Let in at once, with one wake-up: a
   * registration of a large home makes tens of thousands. The array is kept as it is: its maker hands it
   * over, or, `shared`, keeps it unchanged for every queue it goes to.
   */
  pushRegistration(events: ReadonlyArray<WatchEvent>, bound: number, { shared = false }: { readonly shared?: boolean } = {}): void {
    if (this.overflow !== undefined || events.length === 0) return
    this.registered = Math.min(this.registered + events.length, bound)
    this.chunks.push({ events, start: 0, open: undefined, shared })
    this.count += events.length
    this.bound()
    this.wake()
  }

  /** What is pending (at most `max` events, the oldest), possibly nothing, without waiting; the overflow once it happened. */
  poll(max = Infinity): Result.Result<ReadonlyArray<WatchEvent>, WatcherOverflow> {
    if (this.overflow !== undefined) return Result.fail(this.overflow)
    return Result.succeed(this.takeUpTo(max))
  }

  /**
   * The oldest pending events as they are held (at most `max`, from one array: possibly fewer than are
   * pending), `undefined` when none is, without waiting; the overflow once it happened.
   */
  pollRun(max: number): Result.Result<EventRun | undefined, WatcherOverflow> {
    if (this.overflow !== undefined) return Result.fail(this.overflow)
    return Result.succeed(this.takeRun(max))
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
    const registered = this.registered
    const pending = coalesce(this.takeUpTo(Infinity))
    this.chunks = [openChunk(pending)]
    this.count = pending.length
    this.registered = Math.min(registered, pending.length)
    if (pending.length > this.resume + this.registered) {
      this.chunks = []
      this.count = 0
      this.registered = 0
      this.overflow = new WatcherOverflow({ limit: this.limit })
    }
  }

  /** Takes the oldest `max` pending events (all of them when fewer). */
  private takeUpTo(max: number): Array<WatchEvent> {
    const batch: Array<WatchEvent> = []
    for (let run = this.takeRun(max); run !== undefined; run = this.takeRun(max - batch.length)) {
      for (let i = run.start; i < run.end; i++) {
        const event = run.events[i]
        if (event !== undefined) batch.push(event)
      }
    }
    return batch
  }

  /** Takes the oldest pending events of the first chunk, at most `max` (`undefined` when there are none, or `max` is 0). */
  private takeRun(max: number): EventRun | undefined {
    const chunk = this.chunks[0]
    if (chunk === undefined || max <= 0) return undefined
    const start = chunk.start
    const end = Math.min(chunk.events.length, start + max)
    const run: EventRun = { events: chunk.events, start, end, shared: chunk.shared }
    this.count -= end - start
    this.registered = Math.min(this.registered, this.count)
    if (end === chunk.events.length) {
      this.chunks.shift()
    } else if (chunk.open !== undefined && end * 2 > chunk.open.length) {
      // What was taken is dropped once it is most of an array still growing: each event is copied at most
      // once more. The stretch taken keeps the array it was taken from.
      this.chunks[0] = openChunk(chunk.open.slice(end))
    } else {
      chunk.start = end
    }
    return run
  }
}

const openChunk = (events: Array<WatchEvent>): Chunk => ({ events, start: 0, open: events, shared: false })
