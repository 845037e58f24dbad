import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { stopLeftovers } from "./spawnedProcesses.ts"

/**
 * Vitest global setup: one temporary folder for the whole run, under which tests make their data
 * folders (`freshDataDir`), removed when the run ends, so that runs do not pile folders up in /tmp.
 * Workers inherit the variable. At the end, processes that tests started and did not stop (a worker
 * that crashed cannot) are stopped, and said.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "gateway-test-run-"))
  process.env["GATEWAY_TEST_ROOT"] = root
  return () => {
    const stopped = stopLeftovers(root)
    if (stopped > 0) process.stderr.write(`stopped ${stopped} process(es) that tests had started and left running\n`)
    rmSync(root, { recursive: true, force: true })
  }
}
