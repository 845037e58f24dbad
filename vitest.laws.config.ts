import { defineConfig } from "vitest/config"

/**
 * The laws alone (docs/laws.md), as `npm run laws` runs them (test/laws/run.ts), its options in the
 * environment and the table of the laws from its reporter. `npm test` runs the same files among the
 * others, in the workers of vitest.config.ts's project `shared`.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.laws.test.ts"],
    globalSetup: ["./test/support/testTempRoot.ts"],
    silent: "passed-only",
    isolate: false,
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
