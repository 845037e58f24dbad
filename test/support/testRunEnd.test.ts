import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createConnection } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { freshDataDir } from "./gatewayTestLayer.ts"
import { nodeBin } from "./spawnGateway.ts"
import { noteSpawned } from "./spawnedProcesses.ts"

/**
 * How a run of the suite ends, seen from outside: its closing line tells a failure that no test owns,
 * and nothing a test started outlives the run. Each case runs vitest on files of `fixtures/`; the two
 * failures share one run (a nested vitest is ~3 s of CPU), whose line counts each of them.
 */

const root = fileURLToPath(new URL("../../", import.meta.url))
const fixtures = join(root, "test", "support", "fixtures")

const runFixtures = (files: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  new Promise<{ readonly code: number | null; readonly stdout: string }>((resolve) => {
    const child = spawn(
      nodeBin,
      [join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", join(fixtures, "vitest.config.ts"), ...files],
      { cwd: fixtures, detached: true, stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, ...env } }
    )
    noteSpawned(child, true)
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.once("close", (code) => resolve({ code, stdout }))
  })

const summary = (stdout: string) => /^Tests: .*$/m.exec(stdout)?.[0]

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" })
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })

describe("the end of a test run", () => {
  it("counts a passing file's tests", async () => {
    const run = await runFixtures(["passing.fixture.ts"])
    expect({ code: run.code, summary: summary(run.stdout) }).toEqual({ code: 0, summary: "Tests: 1 passed, 0 failed, 0 skipped" })
  })

  it("counts a file whose set-up failed, and a crashed worker, each as a failure beside its skipped test, and stops the broker the worker had started", async () => {
    const out = join(freshDataDir(), "port")
    const run = await runFixtures(["failingSetup.fixture.ts", "crashedWorker.fixture.ts"], { FIXTURE_OUT: out })
    // failingSetup: 1 failed (its set-up), 1 skipped; crashedWorker: 1 failed (the worker), 1 skipped (its test).
    expect({ code: run.code, summary: summary(run.stdout) }).toEqual({ code: 1, summary: "Tests: 0 passed, 2 failed, 2 skipped" })
    expect(await accepts(Number(readFileSync(out, "utf8")))).toBe(false)
  })
})
