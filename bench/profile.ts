// As the gateway's command does (src/cli/Launch.ts): the in-process cases measure the same decoders.
import "effect/schema/SchemaJITCompiler/enable"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { readFileSync, writeFileSync } from "node:fs"
import type { Profiler } from "node:inspector"
import { Console, Effect, References } from "effect"
import { readCommandLine, UsageError } from "./Arguments.ts"
import { casesNamed } from "./Cases.ts"
import { BenchFailed, type Contender, type TimedCase, timeBatch } from "./Harness.ts"
import { formatDuration } from "./Row.ts"
import { startProfiler, topFrames } from "./support/CpuProfile.ts"

const usage = `usage: node dist/bench/profile.js "<case name filter>" [--iterations N] [--seconds N] [--baseline] [--out FILE] [--top N]
       node dist/bench/profile.js --read FILE [--top N]
  Profiles the subject (or, with --baseline, the baseline) of the one timed case whose name contains the
  filter: sets the case up, warms it up, then records a CPU profile of N iterations (or of --seconds of them,
  default 5) and writes it to FILE (default <case>.cpuprofile), and prints the --top functions by self time
  (default 20) on stderr. With --read, prints those of a .cpuprofile written before (by --cpu-prof, say).
  Loopback and start-up cases run in other processes: see bench/README.md.`

const readArguments = Effect.gen(function*() {
  const { filter, values, positiveInteger } = yield* readCommandLine(usage, {
    iterations: { type: "string" },
    seconds: { type: "string" },
    baseline: { type: "boolean" },
    out: { type: "string" },
    read: { type: "string" },
    top: { type: "string" }
  })
  return {
    filter,
    iterations: yield* positiveInteger("iterations", values.iterations),
    seconds: (yield* positiveInteger("seconds", values.seconds)) ?? 5,
    side: values.baseline === true ? "baseline" as const : "subject" as const,
    out: values.out,
    read: values.read,
    top: (yield* positiveInteger("top", values.top)) ?? 20
  }
})

/** The one timed case the filter names; a usage error listing the candidates otherwise. */
const theCase = (filter: string) => {
  const timed = casesNamed(filter).filter((c): c is TimedCase => !("measure" in c))
  const [only, ...others] = timed
  if (only !== undefined && others.length === 0) return Effect.succeed(only)
  const names = (timed.length > 0 ? timed : casesNamed("").filter((c) => !("measure" in c))).map((c) => `  ${c.name}`)
  return Effect.fail(new UsageError({ reason: `"${filter}" names ${timed.length} timed cases; name one of:\n${names.join("\n")}`, usage }))
}

/** Runs `contender` in batches until `iterations` are done or, without a count, until `seconds` have passed. */
const runFor = (name: string, contender: Contender, iterations: number | undefined, seconds: number) =>
  Effect.gen(function*() {
    if (iterations !== undefined) return { count: iterations, ms: yield* timeBatch(name, contender, iterations) }
    let count = 0
    let ms = 0
    while (ms < seconds * 1_000) {
      ms += yield* timeBatch(name, contender, 100)
      count += 100
    }
    return { count, ms }
  })

const printTop = (profile: Profiler.Profile, top: number) =>
  Effect.gen(function*() {
    yield* Console.error(`top ${top} functions by self time:`)
    for (const frame of topFrames(profile, top)) {
      yield* Console.error(`${(frame.share * 100).toFixed(1).padStart(5)} %  ${formatDuration(frame.selfMs).padStart(9)}  ${frame.frame}`)
    }
  })

/** Checked as far as `topFrames` reads it. */
const isProfile = (json: unknown): json is Profiler.Profile =>
  typeof json === "object" && json !== null && Array.isArray(Reflect.get(json, "nodes")) &&
  typeof Reflect.get(json, "startTime") === "number" && typeof Reflect.get(json, "endTime") === "number"

/** A profile written before. */
const readProfile = (file: string) =>
  Effect.gen(function*() {
    const unreadable = (reason: string) => new UsageError({ reason: `cannot read ${file}: ${reason}`, usage })
    const json = yield* Effect.try({
      try: (): unknown => JSON.parse(readFileSync(file, "utf8")),
      catch: (error) => unreadable(error instanceof Error ? error.message : String(error))
    })
    return isProfile(json) ? json : yield* unreadable("not a CPU profile")
  })

const main = Effect.gen(function*() {
  const { filter, iterations, seconds, side, out, read, top } = yield* readArguments
  if (read !== undefined) return yield* printTop(yield* readProfile(read), top)
  const benchCase = yield* theCase(filter)
  yield* Effect.scoped(Effect.gen(function*() {
    const contenders = "acquire" in benchCase
      ? yield* Effect.mapError(benchCase.acquire, (cause) => new BenchFailed({ benchCase: benchCase.name, contender: "setup", cause }))
      : benchCase
    const contender = contenders[side]
    yield* Console.error(`profiling ${benchCase.name}: ${side} (${contender.name})`)
    // Warm-up outside the profile: the profile shows the JIT's steady state, as the benchmark measures it.
    yield* runFor(benchCase.name, contender, undefined, 1)
    const profiler = yield* startProfiler
    const { count, ms } = yield* runFor(benchCase.name, contender, iterations, seconds)
    const profile = yield* profiler.stop
    const file = out ?? `${benchCase.name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}.cpuprofile`
    writeFileSync(file, JSON.stringify(profile))
    yield* Console.error(`${count} iterations in ${formatDuration(ms)}: ${formatDuration(ms / count)} each; profile written to ${file}`)
    yield* printTop(profile, top)
  }))
}).pipe(Effect.provideService(References.MinimumLogLevel, "Warn"))

NodeRuntime.runMain(main)
