import type { Reporter, SerializedError, TestModule } from "vitest/node"

/**
 * Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, which CI and other tools
 * read without knowing vitest's own summary format. A run that failed says so in that line too when
 * no test did: a file that failed to load or whose `beforeAll` failed (its tests are then skipped) and
 * an error outside any test (a crashed worker, an unhandled rejection) each count as one failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const count = { passed: 0, failed: unhandledErrors.length, skipped: 0 }
    for (const module of testModules) {
      const tests = [...module.children.allTests()]
      if (module.state() === "failed" && !tests.some((test) => test.result().state === "failed")) count.failed++
      for (const test of tests) {
        const state = test.result().state
        if (state === "passed") count.passed++
        else if (state === "failed") count.failed++
        else count.skipped++
      }
    }
    process.stdout.write(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`)
  }
}
