import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import { Watch } from "../../gateway/Watch.ts"
import { WATCH_QUEUE_LIMIT } from "../../gateway/WatchQueue.ts"
import { WebSockets } from "../transport/KeepAliveServer.ts"

const queuedEvents = Metric.gauge("gateway_watch_queued_events", {
  description: "Events waiting in the longest watch queue now: what the gateway holds for its slowest watcher " +
    `(at most ${WATCH_QUEUE_LIMIT} besides a registration's own; past that it coalesces, then drops the watcher).`
})

const unsentBytes = Metric.gauge("gateway_watch_unsent_bytes", {
  description: "Bytes of frames waiting in the process for the watch socket furthest behind (the batch in flight)."
})

/**
 * Sets the gauges of what waits for the slowest watchers, read from the live watches and sockets when
 * `GET /metrics` is asked: the fan-out's hot path counts nothing for them.
 */
export const observeWatchBacklog: Effect.Effect<void, never, Watch | WebSockets> = Effect.gen(function*() {
  const watch = yield* Watch
  const sockets = yield* WebSockets
  yield* Metric.update(queuedEvents, yield* watch.longestQueue)
  yield* Metric.update(unsentBytes, sockets.mostUnsentBytes())
})
