import type { CaseResult, Measurement } from "./Harness.ts"

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

const formatMedian = (m: Measurement): string => `${formatDuration(m.medianMs)} (${formatCount(m.opsPerSecond)} op/s)`

const formatRatio = (ratio: number): string => Number.isFinite(ratio) ? `${ratio.toPrecision(3)}×` : "n/a"

const headers = ["case", "baseline", "subject", "baseline median", "subject median", "ratio"] as const
/** Names read left-aligned, numbers right-aligned so that their units line up. */
const rightAligned: ReadonlySet<number> = new Set([3, 4, 5])

/** A plain-text table, one row per case, columns padded to line up in a terminal. */
export const formatTable = (results: ReadonlyArray<CaseResult>): string => {
  const rows: ReadonlyArray<ReadonlyArray<string>> = [
    headers,
    ...results.map((r) => [
      r.name,
      r.baseline.name,
      r.subject.name,
      formatMedian(r.baseline),
      formatMedian(r.subject),
      formatRatio(r.ratio)
    ])
  ]
  const widths = headers.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)))
  const line = (row: ReadonlyArray<string>) =>
    widths
      .map((width, column) => {
        const cell = row[column] ?? ""
        return rightAligned.has(column) ? cell.padStart(width) : cell.padEnd(width)
      })
      .join(" | ")
      .trimEnd()
  const rule = widths.map((width) => "-".repeat(width)).join("-+-")
  return [
    line(headers),
    rule,
    ...rows.slice(1).map(line),
    "",
    "median: time per iteration, median over batches. ratio: subject speed ÷ baseline speed, measured in this run",
    "(above 1: the subject is faster)."
  ].join("\n")
}
