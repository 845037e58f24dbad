import type { Reporter, TestModule } from "vitest/node"

/**
 * Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, which CI and other tools
 * read without knowing vitest's own summary format.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 }
    for (const module of testModules) {
      // A file that failed to load has no tests to count but is a failure all the same.
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) count.failed++
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") count.passed++
        else if (state === "failed") count.failed++
        else count.skipped++
      }
    }
    process.stdout.write(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`)
  }
}
