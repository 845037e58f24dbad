import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Data, Effect } from "effect"
import { BenchFailed, type HarnessOptions, inTurn, median, type SelfMeasuredCase } from "../Harness.ts"
import { exchangeOk } from "../http/Exchange.ts"
import type { LoadReport, LoadRequest } from "../load/LoadReport.ts"
import { runWrk, wrkReportScript } from "../load/Wrk.ts"
import { ensureWrk } from "../load/WrkInstall.ts"
import { formatCount, formatDuration, type Row } from "../Row.ts"
import { channelsOf, type HandWrittenFixture } from "../servers/HandWrittenFixture.ts"
import { adminToken } from "../support/AdminToken.ts"
import { canPin, serverCpu, serverProcess, type ServerProcess } from "../support/ChildProcess.ts"
import { cpuMs } from "../support/ProcessStats.ts"
import { tempDir } from "../support/TempDir.ts"
import { headersOf, homeOf, type RequestCase, requestCases } from "./requestPath.ts"

/**
 * The requests of issue 12 over real loopback sockets, kernel included: each server in a process of
 * its own pinned to CPU 0, loaded by wrk (one thread, 50 keep-alive connections) in another process
 * pinned to CPU 1: wrk, in C, answers far more requests per second than any of the servers, so that
 * the bare server's figure is the server's and not the load generator's ceiling. Five servers answer the same request with the same bytes: the gateway itself
 * (`gateway serve`, the built CLI), a bare `node:http` server answering the gateway's answer, fetched
 * once (the ceiling), and servers doing the same work by hand: a minimal Express server (what WebThings
 * Gateway is built on), a minimal Fastify 5 server (the next peer), and an Effect program per request on
 * plain `node:http` (what Effect itself costs). Runs alternate between the servers; each figure is the median of its runs.
 */

const connections = 50

class LoopbackFailed extends Data.TaggedError("LoopbackFailed")<{ readonly reason: string }> {
  override get message(): string {
    return this.reason
  }
}

/** The built files this case runs, beside this one in dist/. */
const built = (...path: ReadonlyArray<string>) => join(import.meta.dirname, "..", ...path)
export const gatewayBin = built("..", "gateway.js")

/** Start-up of a gateway or a server: generous, for a loaded machine. */
const startupTimeoutMs = 60_000

/**
 * The least warm-up of a server: the gateway's code settles (V8 optimizes it) over several seconds of
 * load, and before that answered at two thirds of its speed (7.1k req/s in its first 3 s of fetch_values,
 * 8.2-10.2k after, measured on the gateway alone); Express and the bare server settle within a second.
 * Every server gets the same warm-up.
 */
const leastWarmupSeconds = 5

/** How long each run loads a server (in whole seconds: wrk's), and how many runs each gets: 3 runs of 4 s by default, scaled by `budgetMs`. */
const runsOf = (options: HarnessOptions) => ({
  warmupSeconds: Math.max(leastWarmupSeconds, Math.round((options.warmupMs * 2) / 1_000)),
  seconds: Math.max(1, Math.round((options.budgetMs * 0.8) / 1_000)),
  runs: options.rounds ?? 3
})

interface Server {
  readonly name: string
  readonly process: ServerProcess
}

/** A run's report, and the server's CPU time over it (user and system) per answer, in µs. */
interface Run {
  readonly report: LoadReport
  readonly cpuMicrosPerAnswer: number
}

/** One run of load against `url`; refused answers or socket errors fail the case, since they would not be the same work. */
const load = (script: string, server: Server, request: Omit<LoadRequest, "url" | "seconds">, path: string, seconds: number) =>
  Effect.gen(function*() {
    const cpuBefore = cpuMs(server.process.pid)
    const report = yield* runWrk(script, { ...request, url: `${server.process.url}${path}`, seconds })
    const cpuAfter = cpuMs(server.process.pid)
    if (report.notOk > 0 || report.errors > 0 || report.ok === 0) {
      return yield* new LoopbackFailed({
        reason: `${server.name}: ${report.ok} answers below 400, ${report.notOk} other, ${report.errors} errors or time-outs`
      })
    }
    return { report, cpuMicrosPerAnswer: ((cpuAfter - cpuBefore) * 1_000) / report.ok }
  })

interface Figures {
  readonly requestsPerSecond: number
  readonly p99Ms: number
  readonly cpuMicrosPerAnswer: number
}

const figuresOf = (runs: ReadonlyArray<Run>): Figures => ({
  requestsPerSecond: median(runs.map((r) => r.report.ok / r.report.seconds)),
  p99Ms: median(runs.map((r) => r.report.p99Ms)),
  cpuMicrosPerAnswer: median(runs.map((r) => r.cpuMicrosPerAnswer))
})

const formatFigures = (f: Figures): string =>
  `${formatCount(f.requestsPerSecond)} req/s, p99 ${formatDuration(f.p99Ms)}` +
  (Number.isNaN(f.cpuMicrosPerAnswer) ? "" : `, ${f.cpuMicrosPerAnswer.toFixed(0)} µs CPU/answer`)

/** The servers written by hand, beside the gateway: each does the same work (HandWritten) in its own framework. */
const peers = [
  { name: "Express by hand", file: "express.js" },
  { name: "Fastify by hand", file: "fastify.js" },
  { name: "Effect per request on node:http", file: "effectPerRequest.js" }
] as const

/** Starts the servers of `c`, each answering its request with the same bytes. */
const startServers = (c: RequestCase) =>
  Effect.gen(function*() {
    const dir = yield* tempDir
    const home = homeOf(c)
    const homeFile = join(dir, "home.json")
    writeFileSync(homeFile, JSON.stringify(home))
    const server = (name: string, args: ReadonlyArray<string>) =>
      Effect.map(serverProcess(name, args, { cpu: serverCpu, timeoutMs: startupTimeoutMs }), (process): Server => ({ name, process }))
    // A first run prints the admin's token before `listening on`; no clock, so that the home is exactly the file's.
    const gateway = yield* server("gateway", [gatewayBin, "serve", "--home", homeFile, "--data", join(dir, "data"), "--port", "0", "--no-clock"])
    const token = yield* adminToken(gateway.process)
    const headers = headersOf(c, token)
    const answer = yield* exchangeOk(`${gateway.process.url}${c.path}`, c.method, headers, c.body)
    const answerFile = join(dir, "answer.json")
    writeFileSync(answerFile, answer)
    const list = (path: string) => Effect.map(exchangeOk(`${gateway.process.url}${path}`, "GET", headers), (text): unknown => JSON.parse(text))
    const fixture: HandWrittenFixture = { token, services: yield* list("/api/v1/services"), nodes: yield* list("/api/v1/nodes"), ...channelsOf(home) }
    const fixtureFile = join(dir, "fixture.json")
    writeFileSync(fixtureFile, JSON.stringify(fixture))
    const bare = yield* server("node:http", [built("servers", "bare.js"), "--answer", answerFile])
    const byHand: Array<Server> = []
    for (const peer of peers) {
      const started = yield* server(peer.name, [built("servers", peer.file), fixtureFile])
      // A benchmark of a different answer proves nothing.
      const peerAnswer = yield* exchangeOk(`${started.process.url}${c.path}`, c.method, headers, c.body)
      if (peerAnswer !== answer) {
        return yield* new LoopbackFailed({ reason: `${peer.name} answers ${peerAnswer.slice(0, 200)}, the gateway ${answer.slice(0, 200)}` })
      }
      byHand.push(started)
    }
    return { bare, byHand, gateway, headers }
  })

const notPinned = "taskset is not available here: each server and its load generator were not pinned to a CPU of their own"

const measure = (name: string, c: RequestCase, options: HarnessOptions): Effect.Effect<ReadonlyArray<Row>, BenchFailed> =>
  Effect.scoped(Effect.gen(function*() {
    const { warmupSeconds, seconds, runs } = runsOf(options)
    yield* ensureWrk
    const script = yield* wrkReportScript
    const servers = yield* startServers(c)
    const request = { method: c.method, headers: servers.headers, connections, ...(c.body === undefined ? {} : { body: c.body }) }
    const tracked = (server: Server) => ({ server, reports: [] as Run[] })
    const bare = tracked(servers.bare)
    const gateway = tracked(servers.gateway)
    const byHand = servers.byHand.map(tracked)
    const all = [bare, gateway, ...byHand]
    for (const { server } of all) yield* load(script, server, request, c.path, warmupSeconds)
    for (let run = 0; run < runs; run++) {
      for (const one of inTurn(all, run)) one.reports.push(yield* load(script, one.server, request, c.path, seconds))
    }
    const baseline = figuresOf(bare.reports)
    const row = (subject: string, figures: Figures): Row => ({
      name,
      baseline: "node:http, same answer",
      subject,
      baselineFigures: formatFigures(baseline),
      subjectFigures: formatFigures(figures),
      ratio: figures.requestsPerSecond / baseline.requestsPerSecond,
      ...(canPin() ? {} : { note: notPinned })
    })
    return [row("gateway", figuresOf(gateway.reports)), ...byHand.map((peer) => row(peer.server.name, figuresOf(peer.reports)))]
  })).pipe(Effect.mapError((cause) => new BenchFailed({ benchCase: name, contender: "loopback", cause })))

export const cases: ReadonlyArray<SelfMeasuredCase> = requestCases.map((c) => {
  const name = `loopback: ${c.name}`
  return { name, measure: (options) => measure(name, c, options) }
})
