import { formatRatio, type Row } from "./Row.ts"

const headers = ["case", "baseline", "subject", "baseline figures", "subject figures", "ratio"] as const
/** Names read left-aligned, figures right-aligned. */
const alignment = ["---", "---", "---", "--:", "--:", "--:"] as const

/** A cell's text, with what would end the cell or the row escaped. */
const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ")

const line = (cells: ReadonlyArray<string>): string => `| ${cells.map(cell).join(" | ")} |`

export const legend = [
  "ratio: how the subject fares against the baseline measured in this run, above 1 when it does better:",
  "subject speed ÷ baseline speed (time per call, requests per second, start-up time), baseline RSS ÷",
  "subject RSS, baseline bytes ÷ subject bytes, events delivered ÷ events asked for. Time per call: median",
  "over batches."
].join("\n")

/** A GitHub-flavoured markdown table, one line per row, then the legend and the rows' notes (each once). */
export const formatTable = (rows: ReadonlyArray<Row>): string => {
  const notes = [...new Set(rows.flatMap((r) => (r.note === undefined ? [] : [r.note])))]
  return [
    line(headers),
    `|${alignment.join("|")}|`,
    ...rows.map((r) => line([r.name, r.baseline, r.subject, r.baselineFigures, r.subjectFigures, formatRatio(r.ratio)])),
    "",
    legend,
    ...(notes.length === 0 ? [] : ["", ...notes.map((note) => `- ${note}`)])
  ].join("\n")
}
