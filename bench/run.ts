import { NodeRuntime } from "@effect/platform-node"
import { parseArgs } from "node:util"
import { Console, Data, Effect, References } from "effect"
import { casesNamed } from "./Cases.ts"
import { defaultHarnessOptions, type HarnessOptions, measureRows } from "./Harness.ts"
import type { Row } from "./Row.ts"
import { formatTable } from "./Table.ts"

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
  const selected = casesNamed(filter)
  if (selected.length === 0) return yield* new UsageError({ reason: `no benchmark case has "${filter}" in its name` })
  const started = performance.now()
  const rows: Array<Row> = []
  for (const benchCase of selected) {
    // Progress goes to stderr: stdout holds only the table.
    yield* Console.error(`measuring: ${benchCase.name}`)
    rows.push(...(yield* measureRows(benchCase, options)))
  }
  yield* Console.error(`${selected.length} cases in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  yield* Console.log(formatTable(rows))
}).pipe(
  // The store logs its migrations; benchmarks want a quiet terminal.
  Effect.provideService(References.MinimumLogLevel, "Warn")
)

NodeRuntime.runMain(main)
