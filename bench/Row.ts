/**
 * One row of the benchmark table: a subject measured against a baseline in the same run, and how the
 * figures of each side are written. Every case, whatever it measures (time per call, requests per second
 * under load, start-up time, memory), reports rows of this one form, so that `npm run bench` prints one table.
 */
export interface Row {
  readonly name: string
  readonly baseline: string
  readonly subject: string
  readonly baselineFigures: string
  readonly subjectFigures: string
  /**
   * How the subject fares against the baseline, oriented so that above 1 is the subject doing better:
   * subject speed ÷ baseline speed (time per call, requests per second, start-up time), baseline memory
   * ÷ subject memory, events delivered ÷ events asked for.
   */
  readonly ratio: number
  /** A caveat about how the row was measured, printed once below the table (e.g. processes not pinned to a CPU). */
  readonly note?: string
}

/** `0.000412` ms → `412 ns`: three significant digits in the unit that fits. */
export const formatDuration = (ms: number): string => {
  if (!Number.isFinite(ms)) return "n/a"
  const [value, unit] = ms >= 1_000 ? [ms / 1_000, "s"] : ms >= 1 ? [ms, "ms"] : ms >= 0.001 ? [ms * 1_000, "µs"] : [ms * 1e6, "ns"]
  return `${value.toPrecision(3)} ${unit}`
}

/** `12345.6` → `12.3k`. */
export const formatCount = (n: number): string => {
  if (!Number.isFinite(n)) return "n/a"
  if (n >= 1e6) return `${(n / 1e6).toPrecision(3)}M`
  if (n >= 1e3) return `${(n / 1e3).toPrecision(3)}k`
  return n.toPrecision(3)
}

/** Bytes as MiB, to the unit. */
export const formatMiB = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`

/** Three significant digits, and no exponent for the thousandfold gains of an index. */
export const formatRatio = (ratio: number): string => {
  if (!Number.isFinite(ratio)) return "n/a"
  return `${ratio >= 1_000 ? Math.round(Number(ratio.toPrecision(3))).toLocaleString("en-US") : ratio.toPrecision(3)}×`
}
