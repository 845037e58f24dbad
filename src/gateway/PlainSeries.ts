import type * as Context from "effect/Context"
import * as Metric from "effect/Metric"

/**
 * Series of a metric counted in plain numbers, read by the metric registry only when it is read (`/metrics`):
 * an update is an addition, where a metric's own update looks its registry and series up in the context every
 * time. Each series is put in the registry of the context given at its first update, as a metric's own is, so
 * that a series appears once used; every update of it must then go through here (the registry ignores the
 * metric's own updates of a series registered this way).
 */

const ignored = (): void => {}

/** A counter's series that only grows, by `add`. */
export class PlainCounter {
  private count = 0
  private registered = false

  constructor(
    private readonly metric: Metric.Counter<number>,
    private readonly context: Context.Context<never>
  ) {}

  add(amount: number): void {
    if (!this.registered) {
      this.registered = true
      Metric.registerUnsafe(this.metric, this.context, {
        get: () => ({ count: this.count, incremental: true }),
        update: ignored,
        modify: ignored
      })
    }
    this.count += amount
  }
}

/** A histogram's series, its buckets' counts in a plain array; `boundaries` are the metric's, in ascending order. */
export class PlainHistogram {
  private readonly counts: Array<number>
  private count = 0
  private sum = 0
  private min = Number.MAX_VALUE
  private max = -Number.MAX_VALUE
  private registered = false

  constructor(
    private readonly metric: Metric.Histogram<number>,
    private readonly boundaries: ReadonlyArray<number>,
    private readonly context: Context.Context<never>
  ) {
    // One more than the boundaries: the values above the last.
    this.counts = boundaries.map(() => 0).concat(0)
  }

  observe(value: number): void {
    if (!this.registered) {
      this.registered = true
      Metric.registerUnsafe(this.metric, this.context, { get: () => this.state(), update: ignored, modify: ignored })
    }
    let bucket = 0
    while (bucket < this.boundaries.length && value > (this.boundaries[bucket] ?? Infinity)) bucket++
    this.counts[bucket] = (this.counts[bucket] ?? 0) + 1
    this.count++
    this.sum += value
    if (value < this.min) this.min = value
    if (value > this.max) this.max = value
  }

  /** What Effect's own histogram reads as: each boundary with the count of the values at or below it. */
  private state(): Metric.HistogramState {
    let cumulated = 0
    const buckets = this.boundaries.map((boundary, at): [number, number] => {
      cumulated += this.counts[at] ?? 0
      return [boundary, cumulated]
    })
    return { buckets, count: this.count, min: this.min, max: this.max, sum: this.sum }
  }
}
