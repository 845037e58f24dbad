import { defineConfig } from "vitest/config"

/** A fixture package's own dependencies (test/fixtures/openapi-types) ship test files of their own. */
const fixtures = "test/fixtures/**"

/**
 * The client as an app installs it (test/package): a project of its own, apart from `npm test` (it packs,
 * installs from npm's cache and type-checks twice, minutes on two cores); `npm run test:package` and .ci/run run it.
 */
const packaging = ["test/package/**/*.test.ts"]

/**
 * Several gateways behind HAProxy (test/replicas, docs/replicas.md): a project of its own, apart from
 * `npm test` (each file starts PostgreSQL, mosquitto, three gateways and HAProxy, and loads them for
 * seconds); `npm run test:replicas` and .ci/run run it. One file at a time: they measure time.
 */
const replicas = ["test/replicas/**/*.test.ts"]

/**
 * The PostgreSQL store and gateways on one database (test/postgres, docs/replicas.md): a project of its own,
 * apart from `npm test` (each file starts a PostgreSQL cluster of its own, `initdb` and a server, and most
 * start gateways on it: seconds of CPU each); `npm run test:postgres` and .ci/run run it.
 */
const postgres = ["test/postgres/**/*.test.ts"]

export default defineConfig({
  test: {
    globalSetup: ["./test/support/testTempRoot.ts"],
    reporters: ["default", "./test/support/SummaryReporter.ts"],
    // A passing test's logs are the ones it provoked (an ERROR for a refused home file, the INFO of a
    // migration): kept out, so that a real failure stands out. A failing test's logs are all shown.
    silent: "passed-only",
    // Two cores, three workers: a third of the files' time is waiting (on spawned gateways, browsers,
    // PostgreSQL), which a third worker fills; more would starve spawned gateways and property tests.
    // Measured on the quiet machine (vitest's Duration): 333 s with two; 282 and 308 s with three (1,993 tests).
    maxWorkers: 3,
    testTimeout: 30_000,
    // A poll waits for a state (a page's answer, a value over the network); it does not time it: speed
    // is measured by the benches. Vitest's 1 s default failed tests on a busy machine that were right.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        // A worker runs many files: each file no longer pays a fresh process and a fresh import of the
        // gateway (a third of the run's time, measured). Tests hold no state in modules they do not reset.
        // The laws run here too (as a project of their own, they paid workers of their own, each importing
        // the gateway again); `npm run laws` runs them alone, with vitest.laws.config.ts.
        test: { name: "shared", include: ["test/**/*.test.ts"], exclude: [...packaging, ...replicas, ...postgres, fixtures], isolate: false }
      },
      { extends: true, test: { name: "package", include: packaging } },
      { extends: true, test: { name: "postgres", include: postgres, isolate: false } },
      { extends: true, test: { name: "replicas", include: replicas, fileParallelism: false, testTimeout: 120_000, hookTimeout: 90_000 } }
    ]
  }
})
