import { NodeRuntime } from "@effect/platform-node"
import { parseArgs } from "node:util"
import { Console, Data, Effect, References } from "effect"
import * as requestPath from "./cases/requestPath.ts"
import * as selectorIndex from "./cases/selectorIndex.ts"
import * as sendBatching from "./cases/sendBatching.ts"
import * as tagStore from "./cases/tagStore.ts"
import { formatLoads, type LoadResult, loads } from "./cases/watchFanOut.ts"
import { type AnyBenchCase, type CaseResult, defaultHarnessOptions, type HarnessOptions, measureAny } from "./Harness.ts"
import { formatTable } from "./Table.ts"

/** Every benchmark module; add a module of `bench/cases/` here. */
const modules: ReadonlyArray<{ readonly cases: ReadonlyArray<AnyBenchCase> }> = [requestPath, tagStore, selectorIndex, sendBatching]

const usage = `usage: npm run bench -- [name filter] [--warmup-ms N] [--budget-ms N] [--rounds N]
  name filter   run only the cases whose name contains it
  --warmup-ms   time each contender runs before measuring (default ${defaultHarnessOptions.warmupMs})
  --budget-ms   measuring time per case (default ${defaultHarnessOptions.budgetMs})
  --rounds      a fixed number of rounds instead of a time budget`

class UsageError extends Data.TaggedError("UsageError")<{ readonly reason: string }> {
  override get message(): string {
    return `${this.reason}\n${usage}`
  }
}

const positiveInteger = (flag: string, text: string | undefined): Effect.Effect<number | undefined, UsageError> => {
  if (text === undefined) return Effect.succeed(undefined)
  const n = Number(text)
  return Number.isInteger(n) && n > 0 ? Effect.succeed(n) : Effect.fail(new UsageError({ reason: `--${flag} takes a positive integer, not "${text}"` }))
}

const readArguments = Effect.gen(function*() {
  const parsed = yield* Effect.try({
    try: () =>
      parseArgs({
        args: process.argv.slice(2),
        allowPositionals: true,
        options: { "warmup-ms": { type: "string" }, "budget-ms": { type: "string" }, rounds: { type: "string" } }
      }),
    catch: (error) => new UsageError({ reason: error instanceof Error ? error.message : String(error) })
  })
  if (parsed.positionals.length > 1) return yield* new UsageError({ reason: "give at most one name filter" })
  const options: HarnessOptions = {
    ...defaultHarnessOptions,
    warmupMs: (yield* positiveInteger("warmup-ms", parsed.values["warmup-ms"])) ?? defaultHarnessOptions.warmupMs,
    budgetMs: (yield* positiveInteger("budget-ms", parsed.values["budget-ms"])) ?? defaultHarnessOptions.budgetMs,
    rounds: yield* positiveInteger("rounds", parsed.values.rounds)
  }
  return { filter: parsed.positionals[0] ?? "", options }
})

const main = Effect.gen(function*() {
  const { filter, options } = yield* readArguments
  const selected = modules.flatMap((m) => m.cases).filter((c) => c.name.includes(filter))
  const selectedLoads = loads.filter((l) => l.name.includes(filter))
  if (selected.length === 0 && selectedLoads.length === 0) {
    return yield* new UsageError({ reason: `no benchmark case has "${filter}" in its name` })
  }
  const results: Array<CaseResult> = []
  for (const benchCase of selected) {
    // Progress goes to stderr: stdout holds only the table.
    yield* Console.error(`measuring: ${benchCase.name}`)
    results.push(yield* measureAny(benchCase, options))
  }
  if (results.length > 0) yield* Console.log(formatTable(results))
  // Load cases report absolute figures, not ratios: they get their own table.
  const loadResults: Array<LoadResult> = []
  for (const load of selectedLoads) {
    yield* Console.error(`measuring: ${load.name}`)
    loadResults.push(yield* load.run)
  }
  if (loadResults.length > 0) yield* Console.log(`${results.length > 0 ? "\n" : ""}${formatLoads(loadResults)}`)
}).pipe(
  // The store logs its migrations; benchmarks want a quiet terminal.
  Effect.provideService(References.MinimumLogLevel, "Warn")
)

NodeRuntime.runMain(main)
