import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { performance } from "node:perf_hooks"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

/** How often, once the gateway listens, it looks whether its event loop has gone idle. */
const checkEvery = Duration.millis(250)
/** Idle: the event loop was busy for less than this share of the last `checkEvery`. */
const idleBelow = 0.25
/** A gateway busy for this many checks after listening is left to V8's memory reducer. */
const checksAtMost = 120

/** V8's `gc` of a context of its own, with the options the flag `--expose-gc` gives it (not in the gateway's global scope). */
type ExposedGc = (options: { readonly type: "major"; readonly execution: "sync"; readonly flavor: "last-resort" }) => void

/**
 * Gives back to the system what the start left V8 holding (docs/configuration.md, "Memory"): one
 * memory-reducing collection, the one V8's memory reducer would run on its own once the process is idle,
 * at the soonest 8 s after the start. A start allocates much that survives, so the young generation grows
 * to its maximum (128 MiB) and freed pages are pooled; the collection shrinks the young generation back
 * and releases the pool. It takes the CPU the memory reducer would have taken, a few seconds sooner.
 */
export const settleMemory: Effect.Effect<void> = Effect.sync(() => {
  setFlagsFromString("--expose-gc")
  const gc = runInNewContext("gc") as ExposedGc
  gc({ type: "major", execution: "sync", flavor: "last-resort" })
})

/**
 * Whether bytes written to a socket are still on their way out: a write libuv has not finished, whose
 * rest leaves as the peer reads. A large answer (a large home's 25 MB listing) takes a slow client a
 * second or more to read while the event loop, which only hands the kernel the next bytes, looks idle;
 * a collection then would stop the answer in the middle.
 */
export const writing = (): boolean => process.getActiveResourcesInfo().some((resource) => resource.endsWith("WriteWrap"))

/**
 * `settleMemory` once, in the background, when the event loop first goes idle after the layer is built
 * (after the server listens) with no answer on its way out: not in the middle of the first requests,
 * which a client that waited for the start sends at once (a large home's first listing keeps the loop
 * busy for most of a second, then its bytes leave as the client reads them).
 */
export const memorySettledAfterStart: Layer.Layer<never> = Layer.effectDiscard(
  Effect.forkScoped(Effect.gen(function*() {
    let last = performance.eventLoopUtilization()
    for (let check = 0; check < checksAtMost; check++) {
      yield* Effect.sleep(checkEvery)
      const now = performance.eventLoopUtilization()
      const busy = performance.eventLoopUtilization(now, last).utilization
      last = now
      if (busy < idleBelow && !writing()) return yield* settleMemory
    }
  }))
)
