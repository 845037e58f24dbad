import { type ChildProcess, spawn } from "node:child_process"
import { projectRoot } from "./projectRoot.ts"
import { noteSpawned } from "./spawnedProcesses.ts"

/**
 * Runs the built CLI (`dist/gateway.js`, the bundle `npm run build` makes: what `npm start` runs) as a real process on the
 * pinned Node from node_modules/.bin, in its own process group so that signals reach it directly
 * and a failed test can kill everything it started. It hashes passwords at the test cost
 * (GATEWAY_TEST_PASSWORD_COST=low, src/cli/PasswordCostSetting.ts), as the in-process gateways do,
 * unless the test's `env` says otherwise: a first run's hash was a quarter of a spawned start's CPU.
 */

const root = projectRoot
export const nodeBin = `${root}node_modules/.bin/node`
export const gatewayBin = `${root}dist/gateway.js`

export interface Exited {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunningGateway {
  /** `http://HOST:PORT` from the `listening on` line. */
  readonly baseUrl: string
  /** The `admin token: …` a first run prints (before `listening on`); absent on later runs. */
  readonly token: string | undefined
  /** The process started (with a launcher, the launcher's: `npm`), leader of its process group. */
  readonly pid: number
  /** Everything the process wrote so far. */
  readonly stdout: () => string
  readonly stderr: () => string
  /** Signals the process group and waits for the exit; SIGKILLs it after `graceMs`. */
  readonly stop: (signal?: NodeJS.Signals, graceMs?: number) => Promise<Exited>
}

const live = new Set<ChildProcess>()

const killGroup = (child: ChildProcess, signal: NodeJS.Signals): void => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

// A crashed or timed-out test worker must not leave gateways behind.
process.once("exit", () => {
  for (const child of live) killGroup(child, "SIGKILL")
})

/** Environment variables to set for the process, on top of this one's. */
export type ExtraEnv = Readonly<Record<string, string>>

/** How the gateway is started, before its arguments: by default the pinned Node on the built CLI. */
export type Launcher = readonly [command: string, ...args: ReadonlyArray<string>]

const start = (args: ReadonlyArray<string>, env: ExtraEnv = {}, [command, ...before]: Launcher = [nodeBin, gatewayBin]) => {
  const child = spawn(command, [...before, ...args], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GATEWAY_TEST_PASSWORD_COST: "low", ...env }
  })
  live.add(child)
  noteSpawned(child, true)
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const exited = new Promise<Exited>((resolve) =>
    child.once("close", (code, signal) => {
      live.delete(child)
      resolve({ code, signal, stdout, stderr })
    })
  )
  return { child, exited, stdout: () => stdout, stderr: () => stderr }
}

/** Runs the CLI to completion (for commands that exit by themselves); killed after `timeoutMs`. */
export const runGateway = async (
  args: ReadonlyArray<string>,
  timeoutMs = 10_000,
  env?: ExtraEnv,
  launcher?: Launcher
): Promise<Exited> => {
  const { child, exited } = start(args, env, launcher)
  const timer = setTimeout(() => killGroup(child, "SIGKILL"), timeoutMs)
  try {
    return await exited
  } finally {
    clearTimeout(timer)
  }
}

/** Starts `gateway …args` and resolves once it prints `listening on URL`. */
export const spawnGateway = async (
  args: ReadonlyArray<string>,
  timeoutMs = 15_000,
  env?: ExtraEnv,
  launcher?: Launcher
): Promise<RunningGateway> => {
  const { child, exited, stdout, stderr } = start(args, env, launcher)
  const stop = async (signal: NodeJS.Signals = "SIGTERM", graceMs = 10_000): Promise<Exited> => {
    killGroup(child, signal)
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), graceMs)
    try {
      return await exited
    } finally {
      clearTimeout(timer)
    }
  }
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening on" line within ${timeoutMs} ms`)), timeoutMs)
      const onData = () => {
        const match = /^listening on (http:\/\/\S+)$/m.exec(stdout())
        if (match?.[1] !== undefined) {
          clearTimeout(timer)
          child.stdout?.off("data", onData)
          resolve(match[1])
        }
      }
      child.stdout?.on("data", onData)
      void exited.then(({ code, signal }) => {
        clearTimeout(timer)
        reject(new Error(`gateway exited (code ${code}, signal ${signal}) before listening`))
      })
    })
    if (child.pid === undefined) throw new Error("gateway has no pid")
    const token = /^admin token: (\S+)$/m.exec(stdout())?.[1]
    return { baseUrl, token, pid: child.pid, stdout, stderr, stop }
  } catch (error) {
    await stop("SIGKILL", 1_000)
    throw new Error(`${String(error)}\nstdout:\n${stdout()}\nstderr:\n${stderr()}`)
  }
}
