import { spawnSync } from "node:child_process"
import { Console, Data, Effect } from "effect"

/**
 * wrk, the load generator of the loopback cases, is a Debian package (`wrk`, 4.1), not an npm one: the
 * bench installs it with apt-get when it is missing and runs as root, and otherwise says how to.
 */

export class WrkMissing extends Data.TaggedError("WrkMissing")<{ readonly reason: string }> {
  override get message(): string {
    return `wrk (the loopback cases' load generator) is not installed, ${this.reason}: install the Debian package ` +
      "with `sudo apt-get install -y wrk` (or build wrk 4.1 from https://github.com/wg/wrk) and put it on PATH"
  }
}

const present = (): boolean => spawnSync("wrk", ["-v"]).error === undefined

/** apt-get's output goes to stderr with the bench's progress: stdout holds only the table. */
const aptGet = (...args: ReadonlyArray<string>): boolean =>
  spawnSync("apt-get", args, { stdio: ["ignore", 2, 2], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0

const install = (): boolean => aptGet("install", "-y", "wrk") || (aptGet("update") && aptGet("install", "-y", "wrk"))

let installed: boolean | undefined
/** wrk on PATH, installed first if need be and possible; asked once. */
export const ensureWrk: Effect.Effect<void, WrkMissing> = Effect.suspend(() => {
  installed ??= present()
  if (installed) return Effect.void
  if (process.getuid?.() !== 0) return Effect.fail(new WrkMissing({ reason: "and the bench, not running as root, cannot install it" }))
  return Effect.andThen(Console.error("wrk is not installed: installing it with apt-get install -y wrk"), () => {
    installed = install() && present()
    return installed ? Effect.void : Effect.fail(new WrkMissing({ reason: "and apt-get could not install it" }))
  })
})
