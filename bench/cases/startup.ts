import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Schedule } from "effect"
import { BenchFailed, type HarnessOptions, inTurn, median, type SelfMeasuredCase } from "../Harness.ts"
import { exchangeOk } from "../http/Exchange.ts"
import { formatDuration, formatMiB, type Row } from "../Row.ts"
import { adminToken } from "../support/AdminToken.ts"
import { serverCpu, serverProcess } from "../support/ChildProcess.ts"
import { channelsPerService, homeFileOf } from "../support/GeneratedHome.ts"
import { cpuMs, residentBytes } from "../support/ProcessStats.ts"
import { tempDir } from "../support/TempDir.ts"
import { gatewayBin } from "./loopback.ts"

/**
 * Start-up and idle memory: the time from spawning `gateway serve` to its `listening on` line and to
 * its first 200 answer of `GET /api/v1/services` (what a client waits for), the CPU time it used until
 * that answer (which, unlike the times, holds on a machine busy with other work), and its resident memory
 * (VmRSS) after a second of idling after that answer, against a bare `node:http` process that does the
 * least the same home asks of any server (for a home file: read and parse it, and keep it), asked the
 * same request. Measured on restarts: a first start on a fresh data folder (which creates the admin,
 * hashing a password, and prints the admin's token that the requests then carry) runs once before,
 * unmeasured. Each process is pinned to CPU 0, like the servers of the loopback table.
 */

const idleMs = 1_000
const bigHomeServices = 10_000

interface Start {
  readonly listeningMs: number
  readonly firstAnswerMs: number
  /** The CPU the process used until its first answer: what holds on a machine busy with other work. */
  readonly firstAnswerCpuMs: number
  readonly rss: number
}

const firstRequest = "/api/v1/services"
/** A server may listen before it can answer (a 503 while the home loads): asked again until it answers 200. */
const untilAnswered = Schedule.spaced(2).pipe(Schedule.upTo({ duration: 30_000 }))

/**
 * One start of `node …args`: time to `listening on` and to the first 200 answer of `firstRequest`
 * (carrying `token`), then RSS once idle; the process is stopped after.
 */
const start = (name: string, args: ReadonlyArray<string>, token: string) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* serverProcess(name, args, { cpu: serverCpu, timeoutMs: 120_000 })
    yield* exchangeOk(`${server.url}${firstRequest}`, "GET", { authorization: `Bearer ${token}` }).pipe(Effect.retry(untilAnswered))
    const firstAnswerMs = performance.now() - server.startedAt
    const firstAnswerCpuMs = cpuMs(server.pid)
    yield* Effect.sleep(idleMs)
    return { listeningMs: server.startupMs, firstAnswerMs, firstAnswerCpuMs, rss: residentBytes(server.pid) }
  }))

/** The first start on a fresh data folder, unmeasured: the admin's token it prints. */
const firstStart = (name: string, args: ReadonlyArray<string>) =>
  Effect.scoped(Effect.flatMap(serverProcess(name, args, { cpu: serverCpu, timeoutMs: 120_000 }), adminToken))

interface Home {
  readonly name: string
  /** The home file to write, or `undefined` for the built-in demo home. */
  readonly file: (() => unknown) | undefined
}

const homes: ReadonlyArray<Home> = [
  { name: "demo home", file: undefined },
  { name: `${(bigHomeServices * channelsPerService).toLocaleString("en-US")}-channel home`, file: () => homeFileOf(bigHomeServices) }
]

const measure = (name: string, home: Home, options: HarnessOptions): Effect.Effect<ReadonlyArray<Row>, BenchFailed> =>
  Effect.scoped(Effect.gen(function*() {
    const dir = yield* tempDir
    const homeFile = join(dir, "home.json")
    if (home.file !== undefined) writeFileSync(homeFile, JSON.stringify(home.file()))
    const homeArgs = home.file === undefined ? [] : ["--home", homeFile]
    // As `npm start` runs it (clock included), on a data folder of its own and a free port.
    const gateway = {
      name: "gateway serve",
      args: [gatewayBin, "serve", ...homeArgs, "--data", join(dir, "data"), "--port", "0"],
      starts: [] as Start[]
    }
    const bare = {
      name: home.file === undefined ? "node:http process" : "node:http process, home file parsed",
      args: [join(import.meta.dirname, "..", "servers", "bare.js"), ...homeArgs],
      starts: [] as Start[]
    }
    // The first run (admin, migrations) and the file cache, unmeasured. Its token is the admin's; the
    // bare process answers whatever the request carries.
    const token = yield* firstStart(gateway.name, gateway.args)
    yield* start(bare.name, bare.args, token)
    const runs = options.rounds ?? 3
    for (let run = 0; run < runs; run++) {
      for (const contender of inTurn([bare, gateway], run)) contender.starts.push(yield* start(contender.name, contender.args, token))
    }
    /** A row of the medians of one figure of the starts. */
    const row = (name: string, figure: (start: Start) => number, format: (n: number) => string): Row => {
      const baseline = median(bare.starts.map(figure))
      const subject = median(gateway.starts.map(figure))
      return { name, baseline: bare.name, subject: gateway.name, baselineFigures: format(baseline), subjectFigures: format(subject), ratio: baseline / subject }
    }
    return [
      row(`start-up to listening: ${home.name}`, (s) => s.listeningMs, formatDuration),
      row(`start-up to the first 200 of GET ${firstRequest}: ${home.name}`, (s) => s.firstAnswerMs, formatDuration),
      row(`CPU to the first 200 of GET ${firstRequest}: ${home.name}`, (s) => s.firstAnswerCpuMs, formatDuration),
      row(`idle RSS after ${idleMs / 1_000} s: ${home.name}`, (s) => s.rss, formatMiB)
    ]
  })).pipe(Effect.mapError((cause) => new BenchFailed({ benchCase: name, contender: "start", cause })))

export const cases: ReadonlyArray<SelfMeasuredCase> = homes.map((home) => {
  const name = `start-up and idle RSS: ${home.name}`
  return { name, measure: (options) => measure(name, home, options) }
})
