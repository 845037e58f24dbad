import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { onFreePort } from "./freePort.ts"
import { projectRoot } from "./projectRoot.ts"
import { haproxy, requireProgram } from "./requiredProgram.ts"
import { noteSpawned } from "./spawnedProcesses.ts"

/**
 * Debian's HAProxy, run in the foreground (`-db`) on a configuration file, stopped by pid. The file is
 * the one docs/replicas.md shows (its `haproxy` block), with only its addresses and ports changed, each
 * change listed by the test that makes it: what the tests run is what the page tells operators to run.
 */

const docPath = join(projectRoot, "docs", "replicas.md")

/** The `haproxy` block of docs/replicas.md, as written. */
export const documentedConfig = (): string => {
  const block = /^```haproxy\n([\s\S]*?)^```$/m.exec(readFileSync(docPath, "utf8"))?.[1]
  if (block === undefined) throw new Error("docs/replicas.md shows no ```haproxy block")
  return block
}

/** One change of the documented file: `from` (an address and port written in it) becomes `to`. */
export interface Substitution {
  readonly from: string
  readonly to: string
}

/** The documented file with each substitution made; one whose `from` the file lacks is an error, not a silent no-op. */
export const substituted = (config: string, substitutions: ReadonlyArray<Substitution>): string =>
  substitutions.reduce((text, { from, to }) => {
    if (!text.includes(from)) throw new Error(`docs/replicas.md's HAProxy file has no "${from}" to replace`)
    return text.replaceAll(from, to)
  }, config)

export interface HAProxy {
  /** `http://127.0.0.1:PORT`, its frontend. */
  readonly baseUrl: string
  readonly port: number
  /** What it wrote (its log goes to standard output, as the documented file says). */
  readonly output: () => string
  /** Stops it (SIGTERM: a hard stop, open connections closed) and waits for the exit. */
  readonly stop: () => Promise<void>
}

const live = new Set<ChildProcess>()
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL")
})

/** Starts HAProxy on `config` and resolves once its frontend on `port` accepts a connection. */
const run = (file: string, port: number): Promise<{ readonly child: ChildProcess; readonly output: () => string }> => {
  const child = spawn(requireProgram(haproxy), ["-db", "-f", file], { stdio: ["ignore", "pipe", "pipe"] })
  live.add(child)
  noteSpawned(child, false)
  let output = ""
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  return new Promise((resolve, reject) => {
    const exited = () => (live.delete(child), reject(new Error(`haproxy exited before taking port ${port}: ${output}`)))
    child.once("exit", exited)
    const poll = async (waited: number): Promise<void> => {
      if (child.exitCode !== null) return
      const accepted = await fetch(`http://127.0.0.1:${port}/ping`).then(() => true, () => false)
      if (accepted) {
        child.off("exit", exited).once("exit", () => live.delete(child))
        resolve({ child, output: () => output })
      } else if (waited > 10_000) {
        child.kill("SIGKILL")
        reject(new Error(`haproxy did not take port ${port} within 10 s: ${output}`))
      } else setTimeout(() => void poll(waited + 50), 50)
    }
    void poll(0)
  })
}

/**
 * HAProxy on the documented file, its frontend's `bind` address (`frontend`, as written) moved to a free
 * port on 127.0.0.1 and each of `substitutions` made.
 */
export const startHAProxy = async (frontend: string, substitutions: ReadonlyArray<Substitution>): Promise<HAProxy> => {
  const dir = mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "haproxy-"))
  const file = join(dir, "haproxy.cfg")
  let port = 0
  const { child, output } = await onFreePort((free) => {
    port = free
    writeFileSync(file, substituted(documentedConfig(), [{ from: frontend, to: `127.0.0.1:${free}` }, ...substitutions]))
    return run(file, free)
  })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
    })
  }
  return { baseUrl: `http://127.0.0.1:${port}`, port, output, stop }
}
