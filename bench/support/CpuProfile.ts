import { Session } from "node:inspector/promises"
import type { Profiler } from "node:inspector"
import { relative } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, type Scope } from "effect"

/**
 * A CPU profile of part of this process, through the inspector: started once a benchmark's setup is
 * done, so that the profile holds only the work measured, not the gateway's start-up.
 */
export interface CpuProfiler {
  readonly stop: Effect.Effect<Profiler.Profile>
}

export const startProfiler: Effect.Effect<CpuProfiler, never, Scope.Scope> = Effect.gen(function*() {
  const session = yield* Effect.acquireRelease(
    Effect.sync(() => {
      const session = new Session()
      session.connect()
      return session
    }),
    (session) => Effect.sync(() => session.disconnect())
  )
  yield* Effect.promise(async () => {
    await session.post("Profiler.enable")
    await session.post("Profiler.start")
  })
  return { stop: Effect.promise(async () => (await session.post("Profiler.stop")).profile) }
})

/** Frames are named by their file in the project (this file is dist/bench/support/). */
const projectRoot = fileURLToPath(new URL("../../../", import.meta.url))

export interface Frame {
  /** `function file:line`. */
  readonly frame: string
  readonly selfMs: number
  readonly share: number
}

/** The functions that spent most time themselves (not in what they called), most first. */
export const topFrames = (profile: Profiler.Profile, count: number): ReadonlyArray<Frame> => {
  const sampled = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0)
  const msPerSample = sampled === 0 ? 0 : (profile.endTime - profile.startTime) / 1_000 / sampled
  const byFrame = new Map<string, number>()
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame
    const file = url === "" ? "" : ` ${url.startsWith("file://") ? relative(projectRoot, fileURLToPath(url)) : url}:${lineNumber + 1}`
    const frame = `${functionName === "" ? "(anonymous)" : functionName}${file}`
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + (node.hitCount ?? 0))
  }
  return [...byFrame]
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([frame, hits]) => ({ frame, selfMs: hits * msPerSample, share: sampled === 0 ? 0 : hits / sampled }))
}
