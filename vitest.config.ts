import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["./test/support/testTempRoot.ts"],
    reporters: ["default", "./test/support/SummaryReporter.ts"],
    // Two cores: keep the pool small so spawned gateways and property tests do not starve each other.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
