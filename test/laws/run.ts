import { spawnSync } from "node:child_process"
import { parseArgs } from "node:util"

/**
 * `npm run laws -- [--runs N] [--seed S] [--law NAME] [--path P] [FILE…]`: runs the laws alone, with
 * vitest.laws.config.ts (of the files whose path holds a FILE given, if any), its options handed to the
 * workers in the environment (test/laws/options.ts), and prints the table of the laws (test/laws/LawReporter.ts).
 * With `--runs`, a law has no time limit (test/laws/law.ts).
 */
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string" },
    seed: { type: "string" },
    law: { type: "string" },
    path: { type: "string" }
  }
})

for (const option of ["runs", "seed"] as const) {
  const value = values[option]
  if (value !== undefined && !/^\d+$/.test(value)) {
    process.stderr.write(`--${option} takes a whole number, not ${value}\n`)
    process.exit(2)
  }
}

const env: Record<string, string | undefined> = {
  ...process.env,
  LAWS_RUNS: values.runs,
  LAWS_SEED: values.seed,
  LAWS_LAW: values.law,
  LAWS_PATH: values.path,
  LAWS_FULL: "1"
}
const args = ["run", "--config", "vitest.laws.config.ts", "--reporter", "dot", "--reporter", "./test/laws/LawReporter.ts", ...positionals]
const { status } = spawnSync("vitest", args, { stdio: "inherit", env })
process.exit(status ?? 1)
