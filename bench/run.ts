// As the gateway's command does (src/cli/Launch.ts): the in-process cases measure the same decoders.
import "effect/schema/SchemaJITCompiler/enable"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect, References } from "effect"
import { readCommandLine, UsageError } from "./Arguments.ts"
import { casesNamed } from "./Cases.ts"
import { defaultHarnessOptions, type HarnessOptions, measureRows } from "./Harness.ts"
import type { Row } from "./Row.ts"
import { formatTable } from "./Table.ts"

const usage = `usage: npm run bench -- [name filter] [--warmup-ms N] [--budget-ms N] [--rounds N]
  name filter   run only the cases whose name contains it
  --warmup-ms   time each contender runs before measuring (default ${defaultHarnessOptions.warmupMs})
  --budget-ms   measuring time per case (default ${defaultHarnessOptions.budgetMs}); the loopback runs last 0.8 of it
  --rounds      a fixed number of rounds instead of a time budget (loopback runs and start-ups: default 3)`

const readArguments = Effect.gen(function*() {
  const { filter, values, positiveInteger } = yield* readCommandLine(usage, {
    "warmup-ms": { type: "string" },
    "budget-ms": { type: "string" },
    rounds: { type: "string" }
  })
  const options: HarnessOptions = {
    ...defaultHarnessOptions,
    warmupMs: (yield* positiveInteger("warmup-ms", values["warmup-ms"])) ?? defaultHarnessOptions.warmupMs,
    budgetMs: (yield* positiveInteger("budget-ms", values["budget-ms"])) ?? defaultHarnessOptions.budgetMs,
    rounds: yield* positiveInteger("rounds", values.rounds)
  }
  return { filter, options }
})

const main = Effect.gen(function*() {
  const { filter, options } = yield* readArguments
  const selected = casesNamed(filter)
  if (selected.length === 0) return yield* new UsageError({ reason: `no benchmark case has "${filter}" in its name`, usage })
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
