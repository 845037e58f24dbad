import type { Reporter, TestModule } from "vitest/node"
import type { LawRecord } from "./law.ts"

/**
 * The table `npm run laws` ends with: each law that ran, its runs, its time and its statistic (the share
 * of telling inputs, and the floor it must reach).
 */
export default class LawReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows: Array<ReadonlyArray<string>> = []
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const law: LawRecord | undefined = test.meta().law
        if (law === undefined) continue
        const mark = test.result().state === "passed" ? "ok" : "FAILED"
        const seconds = ((test.diagnostic()?.duration ?? 0) / 1000).toFixed(2)
        rows.push([mark, test.name, String(law.runs), `${seconds} s`, `${percent(law.share)} ${law.statistic} (floor ${percent(law.floor)})`])
      }
    }
    const header = ["", "law", "runs", "time", "statistic"]
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
    const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd()
    process.stdout.write(`\n${[header, ...rows].map(line).join("\n")}\n\n${rows.length} laws\n`)
  }
}

const percent = (share: number): string => `${Math.round(share * 100)} %`
