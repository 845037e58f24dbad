import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { WatchEvent, WatchRegistration } from "../domain/Watch.ts"
import { WatchHub } from "./WatchHub.ts"
import { Registry } from "./Registry.ts"
import { type EventRun, type WatcherOverflow, WatchQueue } from "./WatchQueue.ts"

/** A live watch whose registration its consumer may replace (the watch socket). */
export interface WatchSession {
  /** Replaces the registration between two changes of the home, with no event lost or repeated for channels in both. */
  readonly replace: (registration: WatchRegistration) => Effect.Effect<void>
  /** Every event pending (at least one), waiting for one if none is; fails once the consumer fell too far behind. */
  readonly take: Effect.Effect<ReadonlyArray<WatchEvent>, WatcherOverflow>
  /**
   * The oldest pending events without waiting (`undefined` when none is; at most `max`, from one array the
   * queue holds: a stretch of a shared registration answer is told as one), for a consumer that is told when
   * events arrive through `listen`, synchronously, as they are pushed: the watch socket, which must not spend
   * a fiber hop per event, and which writes a shared answer's frames once for every socket.
   */
  readonly poll: (max: number) => Result.Result<EventRun | undefined, WatcherOverflow>
  readonly listen: (listener: () => void) => void
  /** Whether the consumer fell too far behind (`poll` and `take` then fail), for one that cannot poll now. */
  readonly overflowed: () => boolean
}

export interface WatchShape {
  /**
   * The events of `registration` (docs/reference.md §7), canonical: the channels already in its set first, then
   * values and the set's changes, for as long as the stream is consumed. Fails with `WatcherOverflow`
   * when the consumer falls too far behind (see WatchQueue).
   */
  readonly watch: (registration: WatchRegistration) => Stream.Stream<WatchEvent, WatcherOverflow>
  /** A session for `registration`, released with the scope. */
  readonly open: (registration: WatchRegistration) => Effect.Effect<WatchSession, never, Scope.Scope>
  /** How many watches are live: each holds a queue, released when its consumer goes. */
  readonly live: Effect.Effect<number>
  /**
   * How many events wait in the longest queue of any live watch: what the gateway holds for its
   * slowest consumer, at most `WATCH_QUEUE_LIMIT` besides a registration's own. Counted when asked,
   * so that the fan-out does no counting.
   */
  readonly longestQueue: Effect.Effect<number>
}

/** Watching channels: the canonical, vocabulary-free service behind the watch socket. */
export class Watch extends Context.Service<Watch, WatchShape>()("app/Watch") {
  static readonly layer = Layer.effect(
    Watch,
    Effect.gen(function*() {
      const registry = yield* Registry
      const hub = new WatchHub(registry.index, (channel, filter) => {
        // Asked for every channel a registration selects: no closure made per call.
        const adapter = registry.adapter(channel.adapter)
        return Option.isSome(adapter) ? adapter.value.refusesWatch(channel.id, filter) : Option.none()
      })
      // One subscription for every watch, started before any watch can be opened: a watch added later
      // computes its set from the home as it is, then follows every change processed after that.
      yield* registry.changes.pipe(
        Stream.runForEachArray((changes) =>
          Effect.sync(() => {
            for (const change of changes) hub.apply(change)
          })
        ),
        Effect.forkScoped({ startImmediately: true })
      )

      const open = (registration: WatchRegistration) =>
        Effect.acquireRelease(
          Effect.sync(() => hub.add(registration, new WatchQueue())),
          (watcher) => Effect.sync(() => hub.remove(watcher))
        ).pipe(
          Effect.map((watcher): WatchSession => ({
            replace: (next) => Effect.sync(() => hub.replace(watcher, next)),
            take: watcher.queue.take,
            poll: (max) => watcher.queue.pollRun(max),
            listen: (listener) => watcher.queue.listen(listener),
            overflowed: () => watcher.queue.overflowed
          }))
        )

      return Watch.of({
        open,
        watch: (registration) =>
          Stream.unwrap(Effect.map(open(registration), (session) => Stream.fromEffectRepeat(session.take))).pipe(
            Stream.flattenIterable
          ),
        live: Effect.sync(() => hub.size),
        longestQueue: Effect.sync(() => hub.longestQueue)
      })
    })
  )
}
