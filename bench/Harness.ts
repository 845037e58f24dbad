import { Data, Effect, type Scope } from "effect"
import { formatCount, formatDuration, type Row } from "./Row.ts"

/** One iteration of timed work: an Effect (run anew each time) or a function returning a Promise. */
export type Iteration = Effect.Effect<unknown, unknown> | (() => Promise<unknown>)

/** One side of a comparison. */
export interface Contender {
  readonly name: string
  readonly run: Iteration
}

/** The subject is timed against a baseline measured in the same run, so the ratio means something on any machine. */
export interface BenchCase {
  readonly name: string
  readonly baseline: Contender
  readonly subject: Contender
}

/**
 * A case whose contenders need resources (a database, a server). They are acquired just before the
 * case is measured and released right after, so a case filtered out costs nothing.
 */
export interface ScopedBenchCase {
  readonly name: string
  readonly acquire: Effect.Effect<{ readonly baseline: Contender; readonly subject: Contender }, unknown, Scope.Scope>
}

/** A case whose contenders are timed here, call by call. */
export type TimedCase = BenchCase | ScopedBenchCase

/**
 * A case that measures itself and reports its rows: load from another process, start-up time, memory.
 * It reads the options to scale its own time (a quick run with a small `budgetMs` is quick for it too).
 */
export interface SelfMeasuredCase {
  readonly name: string
  readonly measure: (options: HarnessOptions) => Effect.Effect<ReadonlyArray<Row>, BenchFailed>
}

/** What a module of `bench/cases/` exports, as `cases`. */
export type AnyBenchCase = TimedCase | SelfMeasuredCase

export interface HarnessOptions {
  /** Time each contender runs before measuring starts (JIT, caches). */
  readonly warmupMs: number
  /** Measuring time per case, both contenders together. Ignored when `rounds` is set. */
  readonly budgetMs: number
  /** Exactly this many rounds instead of a time budget. A round times one batch of each contender. */
  readonly rounds?: number | undefined
  /** Fewest rounds even past the budget: a median of two samples says little. */
  readonly minRounds: number
  /** A batch repeats an iteration until it lasts about this long, so that fast work is not timer noise. */
  readonly batchMs: number
}

/** About 6 s per case on a 2-core machine. */
export const defaultHarnessOptions: HarnessOptions = { warmupMs: 500, budgetMs: 5_000, minRounds: 5, batchMs: 25 }

export interface Measurement {
  readonly name: string
  /** Median over batches of the time per iteration. */
  readonly medianMs: number
  readonly opsPerSecond: number
  readonly batches: number
  readonly iterations: number
}

export interface CaseResult {
  readonly name: string
  readonly baseline: Measurement
  readonly subject: Measurement
  /** Subject speed ÷ baseline speed (= baseline median ÷ subject median): 2 means the subject is twice as fast. */
  readonly ratio: number
}

/** An iteration failed: the case measures nothing. */
export class BenchFailed extends Data.TaggedError("BenchFailed")<{
  readonly benchCase: string
  readonly contender: string
  readonly cause: unknown
}> {
  override get message(): string {
    const why = this.cause instanceof Error ? this.cause.message : String(this.cause)
    return `${this.benchCase} / ${this.contender}: ${why}`
  }
}

/** Milliseconds that `count` iterations of `contender` take, run back to back. */
export const timeBatch = (benchCase: string, contender: Contender, count: number): Effect.Effect<number, BenchFailed> => {
  const failed = (cause: unknown) => new BenchFailed({ benchCase, contender: contender.name, cause })
  const run = contender.run
  if (Effect.isEffect(run)) {
    return Effect.gen(function*() {
      const start = performance.now()
      for (let i = 0; i < count; i++) yield* run
      return performance.now() - start
    }).pipe(Effect.mapError(failed))
  }
  return Effect.tryPromise({
    try: async () => {
      const start = performance.now()
      for (let i = 0; i < count; i++) await run()
      return performance.now() - start
    },
    catch: failed
  })
}

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  const high = sorted[middle] ?? Number.NaN
  const low = sorted[middle - 1] ?? high
  return sorted.length % 2 === 0 ? (low + high) / 2 : high
}

/**
 * The contenders of round `round`, each round starting with the next one (A B C, B C A, …), so that
 * drift (heat, a growing table, the GC, the machine's other load) weighs on all of them alike.
 */
export const inTurn = <A>(contenders: ReadonlyArray<A>, round: number): ReadonlyArray<A> => {
  const shift = round % Math.max(1, contenders.length)
  return [...contenders.slice(shift), ...contenders.slice(0, shift)]
}

/** Times one contender's state across rounds. */
interface Track {
  readonly contender: Contender
  batchSize: number
  iterations: number
  readonly perIterationMs: Array<number>
}

/** Runs `track` for about `ms` (at least once) and sizes its batches from what that took. */
const warmUp = (benchCase: string, track: Track, ms: number, batchMs: number) =>
  Effect.gen(function*() {
    let spent = 0
    let count = 0
    do {
      spent += yield* timeBatch(benchCase, track.contender, 1)
      count++
    } while (spent < ms)
    track.batchSize = Math.max(1, Math.round(batchMs / (spent / count)))
  })

const measurement = (track: Track): Measurement => {
  const medianMs = median(track.perIterationMs)
  return {
    name: track.contender.name,
    medianMs,
    opsPerSecond: 1_000 / medianMs,
    batches: track.perIterationMs.length,
    iterations: track.iterations
  }
}

/**
 * Measures a case: warms both contenders up, then runs rounds of one batch each, alternating which goes
 * first (see `inTurn`).
 */
export const measure = (
  benchCase: BenchCase,
  options: HarnessOptions = defaultHarnessOptions
): Effect.Effect<CaseResult, BenchFailed> =>
  Effect.gen(function*() {
    const track = (contender: Contender): Track => ({ contender, batchSize: 1, iterations: 0, perIterationMs: [] })
    const baseline = track(benchCase.baseline)
    const subject = track(benchCase.subject)
    yield* warmUp(benchCase.name, baseline, options.warmupMs, options.batchMs)
    yield* warmUp(benchCase.name, subject, options.warmupMs, options.batchMs)

    const start = performance.now()
    const done = (rounds: number) =>
      options.rounds !== undefined
        ? rounds >= options.rounds
        : rounds >= options.minRounds && performance.now() - start >= options.budgetMs
    for (let round = 0; !done(round); round++) {
      for (const one of inTurn([baseline, subject], round)) {
        const ms = yield* timeBatch(benchCase.name, one.contender, one.batchSize)
        one.perIterationMs.push(ms / one.batchSize)
        one.iterations += one.batchSize
      }
    }
    const b = measurement(baseline)
    const s = measurement(subject)
    return { name: benchCase.name, baseline: b, subject: s, ratio: b.medianMs / s.medianMs }
  })

/** Measures a timed case of either form; a scoped case's resources are released once it is measured. */
export const measureAny = (
  benchCase: TimedCase,
  options: HarnessOptions = defaultHarnessOptions
): Effect.Effect<CaseResult, BenchFailed> =>
  "acquire" in benchCase
    ? Effect.scoped(
      Effect.flatMap(
        Effect.mapError(benchCase.acquire, (cause) => new BenchFailed({ benchCase: benchCase.name, contender: "setup", cause })),
        (contenders) => measure({ name: benchCase.name, ...contenders }, options)
      )
    )
    : measure(benchCase, options)

const formatMedian = (m: Measurement): string => `${formatDuration(m.medianMs)} (${formatCount(m.opsPerSecond)} op/s)`

/** The table's row of a timed case. */
export const timedRow = (result: CaseResult): Row => ({
  name: result.name,
  baseline: result.baseline.name,
  subject: result.subject.name,
  baselineFigures: formatMedian(result.baseline),
  subjectFigures: formatMedian(result.subject),
  ratio: result.ratio
})

/** Measures a case of any form, into its rows of the table. */
export const measureRows = (
  benchCase: AnyBenchCase,
  options: HarnessOptions = defaultHarnessOptions
): Effect.Effect<ReadonlyArray<Row>, BenchFailed> =>
  "measure" in benchCase ? benchCase.measure(options) : Effect.map(measureAny(benchCase, options), (result) => [timedRow(result)])
