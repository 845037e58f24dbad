import { mkdtempSync, rmSync, statfsSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { stopLeftovers } from "./spawnedProcesses.ts"

/** Memory, where the machine offers enough of it: at least this many bytes free in /dev/shm. */
const enoughShm = 2 * 1024 ** 3

/**
 * Where the run's folder goes: /dev/shm if it has room, else the system's temporary folder. The gateway
 * writes its database with an fsync per commit (synchronous = FULL), and the tests commit thousands of
 * times: on a disk each fsync blocks a worker's thread (200 tokens: 1.6 s against 0.07 s in memory).
 * A container's /dev/shm is often 64 MiB: too small, so the disk it is.
 */
const parentFolder = (): string => {
  try {
    const { bavail, bsize } = statfsSync("/dev/shm")
    return bavail * bsize >= enoughShm ? "/dev/shm" : tmpdir()
  } catch {
    return tmpdir()
  }
}

/**
 * Vitest global setup: one temporary folder for the whole run, under which tests make their data
 * folders (`freshDataDir`), removed when the run ends, so that runs do not pile folders up. Workers
 * inherit the variable. At the end, processes that tests started and did not stop (a worker that
 * crashed cannot) are stopped, and said.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(parentFolder(), "gateway-test-run-"))
  process.env["GATEWAY_TEST_ROOT"] = root
  return () => {
    const stopped = stopLeftovers(root)
    if (stopped > 0) process.stderr.write(`stopped ${stopped} process(es) that tests had started and left running\n`)
    rmSync(root, { recursive: true, force: true })
  }
}
