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
 * and nothing a test started outlives the run. Each case runs vitest on one file of `fixtures/`.
 */

const root = fileURLToPath(new URL("../../", import.meta.url))
const fixtures = join(root, "test", "support", "fixtures")

const runFixture = (file: string, env: Readonly<Record<string, string>> = {}) =>
  new Promise<{ readonly code: number | null; readonly stdout: string }>((resolve) => {
    const child = spawn(
      nodeBin,
      [join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", join(fixtures, "vitest.config.ts"), file],
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
    const run = await runFixture("passing.fixture.ts")
    expect({ code: run.code, summary: summary(run.stdout) }).toEqual({ code: 0, summary: "Tests: 1 passed, 0 failed, 0 skipped" })
  })

  it("counts a file whose set-up failed as a failure, beside its skipped tests", async () => {
    const run = await runFixture("failingSetup.fixture.ts")
    expect({ code: run.code, summary: summary(run.stdout) }).toEqual({ code: 1, summary: "Tests: 0 passed, 1 failed, 1 skipped" })
  })

  it("counts a crashed worker as a failure and stops the broker it had started", async () => {
    const out = join(freshDataDir(), "port")
    const run = await runFixture("crashedWorker.fixture.ts", { FIXTURE_OUT: out })
    expect(run.code).toBe(1)
    expect(summary(run.stdout)).toMatch(/^Tests: 0 passed, [1-9]\d* failed, \d+ skipped$/)
    expect(await accepts(Number(readFileSync(out, "utf8")))).toBe(false)
  })
})
