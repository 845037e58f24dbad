import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

/** How long after `listening on` the memory is settled: the first requests of a client that waited are answered first. */
export const settleDelay = Duration.millis(500)

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

/** `settleMemory` once, `settleDelay` after the layer is built (after the server listens), in the background. */
export const memorySettledAfterStart: Layer.Layer<never> = Layer.effectDiscard(
  Effect.forkScoped(Effect.delay(settleMemory, settleDelay))
)
