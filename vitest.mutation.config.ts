import { defineConfig } from "vitest/config"

/**
 * The laws that check the selector semantics, for the mutation testing (stryker.config.json, docs/laws.md):
 * those that check them directly, in memory. The same laws over HTTP, the watch against its model and
 * the codecs' round trips are left out: they reach the mutated files through the ones here, in much
 * more time (the watch's law alone would take two thirds of each mutant's run). A law stops at its first
 * failure, unshrunk: a killed mutant needs no smallest counterexample.
 */
export default defineConfig({
  test: {
    include: [
      "test/domain/selector.laws.test.ts",
      "test/domain/range.laws.test.ts",
      "test/domain/scope.laws.test.ts",
      "test/gateway/homeIndex.laws.test.ts",
      "test/crossVocabulary/translationOnTheIndex.laws.test.ts"
    ],
    globalSetup: ["./test/support/testTempRoot.ts"],
    env: { LAWS_NO_SHRINK: "1" },
    silent: "passed-only",
    testTimeout: 120_000
  }
})
