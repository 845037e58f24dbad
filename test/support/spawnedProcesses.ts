import type { ChildProcess } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * Every process a test starts (gateways, brokers, shell examples) is noted here, a file per pid under
 * the run's temporary folder, until it exits. A test worker that crashes or is killed runs no exit
 * handler of its own; the run's global teardown, in vitest's main process, then stops what the worker
 * left (`stopLeftovers`), so no broker or gateway outlives the run.
 */

const folder = (root: string) => join(root, "spawned")

/** The process's start time in clock ticks since boot (Linux), so that a reused pid is never taken for it. */
const startTime = (pid: number): string | undefined => {
  try {
    // Field 22 of /proc/PID/stat, counted after the command name, which may hold spaces and parentheses.
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)?.split(" ")[19]
  } catch {
    return undefined
  }
}

/** Notes `child` until it exits; `group`: it leads its own process group (spawned `detached`), stopped whole. */
export const noteSpawned = (child: ChildProcess, group: boolean): void => {
  const root = process.env["GATEWAY_TEST_ROOT"]
  if (root === undefined || child.pid === undefined) return
  mkdirSync(folder(root), { recursive: true })
  const file = join(folder(root), String(child.pid))
  writeFileSync(file, JSON.stringify({ group, started: startTime(child.pid) }))
  child.once("exit", () => rmSync(file, { force: true }))
}

/** SIGKILLs every noted process (its group, if it leads one) still running; answers how many it stopped. */
export const stopLeftovers = (root: string): number => {
  let entries: ReadonlyArray<string>
  try {
    entries = readdirSync(folder(root))
  } catch {
    return 0
  }
  let stopped = 0
  for (const entry of entries) {
    const pid = Number(entry)
    const noted = JSON.parse(readFileSync(join(folder(root), entry), "utf8")) as { group: boolean; started?: string }
    if (noted.started === undefined || noted.started !== startTime(pid)) continue
    try {
      process.kill(noted.group ? -pid : pid, "SIGKILL")
      stopped++
    } catch {
      // Gone already.
    }
  }
  return stopped
}
