import { Arbitrary, Effect } from "effect"
import * as fc from "fast-check"
import { expect, it } from "vitest"
import { lawOptions } from "./options.ts"

/**
 * One law of the project, as `npm run laws` runs it (docs/laws.md). A law is a property checked with the
 * run's seed and runs, which also counts how often what it generated was telling (a selector that matched
 * something, a value its vocabulary could say): a law checked only on vacuous inputs proves nothing, so
 * the share of telling inputs must reach the law's floor. A failure says the shrunk counterexample and
 * the command that replays it.
 */

/** What the statistic of a law counts, and the share it must reach. */
export interface Statistic {
  /** What a telling input is, in words: "selectors matching at least one channel". */
  readonly of: string
  readonly floor: number
}

/**
 * A law's default runs: one number, of which `npm test` runs the first half (rounded up); or the runs of
 * `npm run laws` and the fewer of `npm test`, for a law whose runs each start gateways and send them
 * hundreds of requests. The seed is the same: `npm test` checks the first inputs that `npm run laws`
 * checks, and `.ci/run` runs both (docs/laws.md).
 */
export type Runs = number | { readonly laws: number; readonly npmTest: number }

const byDefault = (runs: Runs): number => {
  if (typeof runs !== "number") return lawOptions.full ? runs.laws : runs.npmTest
  return lawOptions.full ? runs : Math.ceil(runs / 2)
}

/** Notes whether one generated input was telling. */
export type Note = (telling: boolean) => void

/** What a law leaves for the law reporter (test/laws/LawReporter.ts). */
export interface LawRecord {
  readonly runs: number
  readonly statistic: string
  readonly share: number
  readonly floor: number
}

declare module "vitest" {
  interface TaskMeta {
    law?: LawRecord
  }
}

interface Failure {
  readonly report: string
  readonly seed: number
  readonly path: string
}

/** The command that replays a failure; the runs too, when asked for (Effect's replay token depends on them). */
const replay = (name: string, failure: Failure): string => {
  const runs = lawOptions.runs === undefined ? "" : ` --runs ${lawOptions.runs}`
  const path = failure.path === "" ? "" : ` --path '${failure.path}'`
  return `${failure.report}\n\nReplay: npm run laws -- --law '${name}'${runs} --seed ${failure.seed}${path}`
}

const register = (
  name: string,
  statistic: Statistic,
  defaultRuns: Runs,
  check: (runs: number, note: Note) => Promise<Failure | undefined>,
  timeout: number | undefined
): void => {
  const skipped = lawOptions.law !== undefined && !name.includes(lawOptions.law)
  it.skipIf(skipped)(name, async ({ task }) => {
    const runs = lawOptions.runs ?? byDefault(defaultRuns)
    let noted = 0
    let telling = 0
    const failure = await check(runs, (t) => {
      noted++
      if (t) telling++
    })
    const share = noted === 0 ? 0 : telling / noted
    task.meta.law = { runs, statistic: statistic.of, share, floor: statistic.floor }
    if (failure !== undefined) expect.fail(replay(name, failure))
    // A replayed path checks one input: its share says nothing of the generator.
    if (lawOptions.path === undefined) expect(share, `share of ${statistic.of}`).toBeGreaterThanOrEqual(statistic.floor)
  }, lawOptions.runs === undefined ? timeout : 0) // runs asked for: as long as they take
}

/** A law checked by fast-check: `property` notes, in each run, whether its input was telling. */
export const law = <Ts>(
  name: string,
  statistic: Statistic,
  defaultRuns: Runs,
  property: (note: Note) => fc.IRawProperty<Ts>,
  timeout?: number
): void =>
  register(name, statistic, defaultRuns, async (runs, note) => {
    const path = lawOptions.path === undefined ? {} : { path: lawOptions.path }
    const details = await fc.check(property(note), { numRuns: runs, seed: lawOptions.seed, endOnFailure: !lawOptions.shrink, ...path })
    return details.failed
      ? { report: fc.defaultReportMessage(details) ?? "", seed: details.seed, path: details.counterexamplePath ?? "" }
      : undefined
  }, timeout)

/**
 * A law checked by Effect's Arbitrary (values its schemas generate). Its replay is the whole check again,
 * with the same seed and runs: Effect's own replay token did not reproduce a failure it had printed.
 */
export const schemaLaw = <A, E>(
  name: string,
  statistic: Statistic,
  defaultRuns: number,
  check: (options: Arbitrary.CheckOptions, note: Note) => Effect.Effect<Arbitrary.CheckResult<A, E>>,
  timeout?: number
): void =>
  register(name, statistic, defaultRuns, async (runs, note) => {
    const shrinks = lawOptions.shrink ? {} : { maxShrinks: 0 }
    const result = await Effect.runPromise(check({ runs, seed: lawOptions.seed, ...shrinks }, note))
    const report = Arbitrary.formatCheckFailure(result)
    return report === undefined ? undefined : { report, seed: lawOptions.seed, path: "" }
  }, timeout)
