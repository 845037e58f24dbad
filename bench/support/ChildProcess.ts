import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process"
import { cpus } from "node:os"
import { createInterface } from "node:readline"
import { Data, Effect, type Scope } from "effect"

/**
 * Processes that a benchmark starts: servers under load, the load generator, watch clients. Each runs
 * on this Node (the pinned Node 24: `process.execPath`), or is another program (wrk), in its own process group, so that stopping the
 * group stops it and whatever it started, whether the benchmark ends, fails or is interrupted. On a
 * machine with `taskset`, a process can be pinned to one CPU, so that a server and its load do not
 * take turns on the same core.
 */

export class ChildFailed extends Data.TaggedError("ChildFailed")<{
  readonly name: string
  readonly reason: string
  /** The end of what the process wrote on stderr: why it failed, usually. */
  readonly stderr: string
}> {
  override get message(): string {
    return `${this.name}: ${this.reason}${this.stderr === "" ? "" : `\n${this.stderr}`}`
  }
}

let pinning: boolean | undefined
/** Whether processes can be pinned to a CPU here (`taskset` exists and works); asked once. */
export const canPin = (): boolean => (pinning ??= spawnSync("taskset", ["-c", "0", "true"]).status === 0)

/** The CPU a server is pinned to, and the one its load generator is pinned to. */
export const serverCpu = 0
export const loadCpu = 1

/**
 * This process, every thread of it, on `cpu` alone for the scope (where taskset works), then back on
 * every CPU: for a case whose server runs in the benchmark's own process.
 */
export const pinThisProcess = (cpu: number): Effect.Effect<void, never, Scope.Scope> =>
  canPin()
    ? Effect.acquireRelease(
      Effect.sync(() => spawnSync("taskset", ["-a", "-cp", String(cpu), String(process.pid)])),
      () => Effect.sync(() => spawnSync("taskset", ["-a", "-cp", `0-${cpus().length - 1}`, String(process.pid)]))
    )
    : Effect.void

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

interface Running {
  readonly name: string
  readonly child: ChildProcessWithoutNullStreams
  readonly pid: number
  readonly startedAt: number
  /** Settles once the process has exited and its pipes are closed. */
  readonly exited: Promise<Exit>
  readonly stderrTail: () => string
}

const live = new Set<ChildProcess>()

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals): void => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

// A benchmark that dies without running its finalizers (an uncaught exception) leaves nothing running.
process.once("exit", () => {
  for (const child of live) signalGroup(child, "SIGKILL")
})

/** Keeps the last few KiB of a stream: enough to say why a process failed, bounded whatever it writes. */
const tail = (stream: NodeJS.ReadableStream): (() => string) => {
  let text = ""
  stream.setEncoding("utf8")
  stream.on("data", (chunk: string) => {
    text = (text + chunk).slice(-4_096)
  })
  return () => text.trimEnd()
}

/** `executable …args`, pinned to `cpu` where possible; the executable is this Node unless told. */
const start = (name: string, executable: string, args: ReadonlyArray<string>, cpu: number | undefined): Effect.Effect<Running, ChildFailed> =>
  Effect.suspend(() => {
    const command = cpu !== undefined && canPin() ? ["taskset", "-c", String(cpu), executable, ...args] : [executable, ...args]
    const startedAt = performance.now()
    const [file = process.execPath, ...rest] = command
    const child = spawn(file, rest, { detached: true, stdio: ["pipe", "pipe", "pipe"] })
    // A process that cannot be started has no pid, reported below; its "error" event must not crash the benchmark.
    child.on("error", () => {})
    if (child.pid === undefined) {
      return Effect.fail(new ChildFailed({ name, reason: `could not start ${file}`, stderr: "" }))
    }
    live.add(child)
    const exited = new Promise<Exit>((resolve) =>
      child.once("close", (code, signal) => {
        live.delete(child)
        resolve({ code, signal })
      })
    )
    return Effect.succeed({ name, child, pid: child.pid, startedAt, exited, stderrTail: tail(child.stderr) })
  })

/** SIGTERM to the group, then SIGKILL if it is still there after `graceMs`; waits for the exit. */
const stop = (running: Running, graceMs = 5_000): Effect.Effect<void> =>
  Effect.promise(async () => {
    signalGroup(running.child, "SIGTERM")
    const timer = setTimeout(() => signalGroup(running.child, "SIGKILL"), graceMs)
    await running.exited
    clearTimeout(timer)
  })

/** A process of the scope: started now, stopped (group and all) when the scope closes. */
const scoped = (name: string, args: ReadonlyArray<string>, cpu: number | undefined, executable = process.execPath) =>
  Effect.acquireRelease(start(name, executable, args, cpu), (running) => stop(running))

const exitReason = (exit: Exit): string =>
  exit.signal !== null ? `killed by ${exit.signal}` : `exited with code ${String(exit.code)}`

/** A server process that has said where it listens. */
export interface ServerProcess {
  readonly pid: number
  /** When it was spawned, on `performance.now()`'s clock. */
  readonly startedAt: number
  /** `http://HOST:PORT` from its `listening on URL` line. */
  readonly url: string
  /** From the spawn to the `listening on` line. */
  readonly startupMs: number
  /** The lines it printed before `listening on` (a gateway's first run prints its admin token there). */
  readonly linesBefore: ReadonlyArray<string>
}

type Startup =
  | { readonly _tag: "Listening"; readonly url: string; readonly at: number; readonly linesBefore: ReadonlyArray<string> }
  | { readonly _tag: "Exited"; readonly exit: Exit }

const listening = /^listening on (\S+)$/

/**
 * Starts `node …args` (pinned to `cpu` where possible) and waits until it prints `listening on URL` on
 * stdout; the rest of its stdout is read and dropped, so that its pipe never fills. Stopped with the scope.
 */
export const serverProcess = (
  name: string,
  args: ReadonlyArray<string>,
  options: { readonly cpu?: number; readonly timeoutMs: number }
): Effect.Effect<ServerProcess, ChildFailed, Scope.Scope> =>
  Effect.gen(function*() {
    const running = yield* scoped(name, args, options.cpu)
    const linesBefore: Array<string> = []
    const ready = new Promise<Startup>((resolve) => {
      let found = false
      const lines = createInterface({ input: running.child.stdout })
      lines.on("line", (line) => {
        if (found) return
        const match = listening.exec(line)
        if (match?.[1] === undefined) {
          linesBefore.push(line)
          return
        }
        found = true
        resolve({ _tag: "Listening", url: match[1], at: performance.now(), linesBefore })
      })
      void running.exited.then((exit) => resolve({ _tag: "Exited", exit }))
    })
    const failed = (reason: string) => new ChildFailed({ name, reason, stderr: running.stderrTail() })
    const startup = yield* Effect.promise(() => ready).pipe(
      Effect.timeoutOrElse({
        duration: options.timeoutMs,
        orElse: () => Effect.fail(failed(`no "listening on" line within ${options.timeoutMs} ms`))
      })
    )
    if (startup._tag === "Exited") return yield* failed(`${exitReason(startup.exit)} before listening`)
    return { pid: running.pid, startedAt: running.startedAt, url: startup.url, startupMs: startup.at - running.startedAt, linesBefore: startup.linesBefore }
  })

/**
 * Runs `node …args`, or `executable …args` (pinned to `cpu` where possible), to its end and answers what
 * it printed on stdout.
 * A process that exits with an error, or outlasts `timeoutMs`, fails; it is stopped if the fiber is
 * interrupted.
 */
export const runToEnd = (
  name: string,
  args: ReadonlyArray<string>,
  options: { readonly cpu?: number; readonly timeoutMs: number; readonly executable?: string }
): Effect.Effect<string, ChildFailed> =>
  Effect.scoped(Effect.gen(function*() {
    const running = yield* scoped(name, args, options.cpu, options.executable)
    running.child.stdin.end()
    let stdout = ""
    running.child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    const failed = (reason: string) => new ChildFailed({ name, reason, stderr: running.stderrTail() })
    const exit = yield* Effect.promise(() => running.exited).pipe(
      Effect.timeoutOrElse({
        duration: options.timeoutMs,
        orElse: () => Effect.fail(failed(`still running after ${options.timeoutMs} ms`))
      })
    )
    if (exit.code !== 0) return yield* failed(exitReason(exit))
    return stdout
  }))

/** A process to talk to over its stdin and stdout, line by line (the watch benchmark's clients). Stopped with the scope. */
export interface LineProcess {
  readonly send: (line: string) => Effect.Effect<void>
  /** The next line it prints; fails if it exits first. */
  readonly readLine: Effect.Effect<string, ChildFailed>
}

export const lineProcess = (
  name: string,
  args: ReadonlyArray<string>,
  options: { readonly cpu?: number } = {}
): Effect.Effect<LineProcess, ChildFailed, Scope.Scope> =>
  Effect.map(scoped(name, args, options.cpu), (running) => {
    const lines = createInterface({ input: running.child.stdout })[Symbol.asyncIterator]()
    return {
      send: (line) => Effect.sync(() => running.child.stdin.write(`${line}\n`)),
      readLine: Effect.flatMap(Effect.promise(() => lines.next()), (next) =>
        next.done === true
          ? Effect.fail(new ChildFailed({ name, reason: "exited before answering", stderr: running.stderrTail() }))
          : Effect.succeed(String(next.value)))
    }
  })
