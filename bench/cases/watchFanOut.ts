import { Agent, request } from "node:http"
import { join } from "node:path"
import { Effect, Option, Stream } from "effect"
import { maxWatchSocketsPerToken } from "../../src/auth/LiveSockets.ts"
import { BenchFailed, type HarnessOptions, type SelfMeasuredCase } from "../Harness.ts"
import { formatCount, formatDuration, formatMiB, type Row } from "../Row.ts"
import { benchGateway } from "../support/BenchGateway.ts"
import { canPin, ChildFailed, lineProcess, loadCpu, pinThisProcess, serverCpu } from "../support/ChildProcess.ts"

/**
 * Watch fan-out under load (issue 8): N watchers of every getter, in a separate process pinned to a CPU
 * of its own (this process, the gateway's, on the other), on a home
 * whose getters change 100 times a second in total (values written over REST, each carrying the time it
 * was sent), plus one watcher that stops reading. Its ratio is the events per second delivered to the
 * slowest reading watcher ÷ those the load asks for (1: the gateway, and its writer in the same process,
 * kept up); its figures, the latency to the client from the value's change in the gateway and from its
 * write over REST (which adds the request's wait for the gateway's loop), values lost by clients that keep up,
 * and the RSS of the process (this one: the gateway runs in it, with whatever earlier cases left) at the
 * start and the end of the window (flat: the stalled client costs nothing).
 */

const getters = 10
const valuesPerSecond = 100
const kind = { vendor: "bench", adapter: "bench", kind: "sent-at", type: "ExtNumeric" }
const sentAt = (value: number) => ({ ExtNumeric: { value, vendor: "bench", adapter: "bench", kind: "sent-at" } })

const home = {
  adapter: "simulator@bench",
  services: Array.from({ length: getters }, (_, i) => ({
    id: `service:sensor-${i}@bench`,
    getters: [{ id: `getter:sensor-${i}@bench`, kind, value: sentAt(0) }],
    setters: [{ id: `setter:sensor-${i}@bench`, kind, drives: `getter:sensor-${i}@bench` }]
  }))
}

const now = () => performance.timeOrigin + performance.now()

interface Report {
  readonly min: number
  /** From the value's sending by the REST writer. */
  readonly p50: number
  readonly p99: number
  /** From the value's change in the gateway. */
  readonly changeP50: number
  readonly changeP99: number
}

const isReport = (json: unknown): json is Report =>
  typeof json === "object" && json !== null &&
  ["min", "p50", "p99", "changeP50", "changeP99"].every((key) => typeof Reflect.get(json, key) === "number")

/** Writes over REST, paced against the clock; each write answers whether the gateway took it. */
const writer = (port: number, token: string) => {
  // Enough sockets that a write rarely waits for a free one: that wait would count as watch latency.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const write = (i: number) =>
    new Promise<boolean>((resolve) => {
      const body = JSON.stringify({ select: { id: `setter:sensor-${i % getters}@bench` }, value: sentAt(now()) })
      const options = {
        host: "127.0.0.1",
        port,
        path: "/api/v1/channels/set",
        method: "PUT",
        headers: { authorization: `Bearer ${token}` },
        agent
      }
      const req = request(options, (res) => {
        res.resume()
        res.on("end", () => resolve(res.statusCode === 200))
      })
      // A write that fails is a value not written, not one lost by the watchers.
      req.on("error", () => resolve(false))
      req.end(body)
    })
  /** Writes `valuesPerSecond` for `ms`, catching up a late tick; answers how many the gateway took. */
  const writeFor = (ms: number) =>
    Effect.promise(async () => {
      const start = now()
      let issued = 0
      const pending: Array<Promise<boolean>> = []
      while (now() - start < ms) {
        const due = Math.floor(((now() - start) * valuesPerSecond) / 1000)
        while (issued < due) pending.push(write(issued++))
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
      return (await Promise.all(pending)).filter((taken) => taken).length
    })
  return { writeFor, close: () => agent.destroy() }
}

const notPinned = "taskset is not available here: the gateway and its watchers were not pinned to a CPU of their own"

const unexpected = (reason: string) => new ChildFailed({ name: "watch clients", reason, stderr: "" })

const measure = (name: string, watchers: number, options: HarnessOptions): Effect.Effect<ReadonlyArray<Row>, BenchFailed> =>
  Effect.scoped(Effect.gen(function*() {
    // Scaled with the harness's options: 2 s of warm-up and a 10 s window by default.
    const warmupMs = options.warmupMs * 4
    const windowMs = options.budgetMs * 2
    // The gateway (in this process, with the REST writer) on one CPU, the watchers on the other, as the
    // loopback cases pin a server and its load generator.
    yield* pinThisProcess(serverCpu)
    const gateway = yield* benchGateway(Option.some(home))
    const port = new URL(gateway.url).port
    // A token holds a bounded number of watch sockets: one token per that many watchers (and the stalled one).
    const tokens = yield* Effect.forEach(
      Array.from({ length: Math.ceil((watchers + 1) / maxWatchSocketsPerToken) }),
      () => gateway.createToken
    )
    // When each value changed in the gateway (the watch service sees the change in the same turn), by
    // the time it carries.
    const changedAt = new Map<number, number>()
    yield* gateway.changes.pipe(
      Stream.runForEach((change) =>
        Effect.sync(() => {
          if (change._tag === "ValueReported" && change.value._tag === "ExtNumeric") changedAt.set(change.value.value, now())
        })
      ),
      Effect.forkScoped
    )
    const { writeFor, close } = writer(Number(port), gateway.token)
    yield* Effect.addFinalizer(() => Effect.sync(close))
    const clients = yield* lineProcess("watch clients", [
      join(import.meta.dirname, "..", "watch", "loadClients.js"),
      `ws://127.0.0.1:${port}/api/v1/channels/watch`,
      String(watchers),
      String(getters),
      tokens.join(",")
    ], { cpu: loadCpu })
    const expect = (line: string) =>
      Effect.flatMap(clients.readLine, (read) =>
        read === line ? Effect.void : Effect.fail(unexpected(`said ${JSON.stringify(read)}, not ${line}`)))
    yield* expect("ready")
    // Warm-up (JIT, buffers), whose latencies are forgotten.
    yield* writeFor(warmupMs)
    yield* Effect.sleep(500)
    yield* clients.send("reset")
    yield* expect("ok")
    const rssStart = process.memoryUsage().rss
    const from = now()
    const written = yield* writeFor(windowMs)
    const to = now()
    // Time for the last values to arrive.
    yield* Effect.sleep(1_000)
    const rssEnd = process.memoryUsage().rss
    const changes = [...changedAt].filter(([sent]) => sent >= from && sent <= to)
    yield* clients.send(`report ${from} ${to} ${JSON.stringify(changes)}`)
    const report: unknown = JSON.parse(yield* clients.readLine)
    if (!isReport(report)) return yield* Effect.fail(unexpected(`reported ${JSON.stringify(report)}`))
    const seconds = (to - from) / 1000
    const delivered = (report.min * watchers) / seconds
    const asked = valuesPerSecond * watchers
    return [{
      name,
      baseline: `${valuesPerSecond} values/s to each watcher (the load asked for)`,
      subject: "events delivered to the slowest reading watcher",
      baselineFigures: `${formatCount(asked)} events/s`,
      subjectFigures: `${formatCount(delivered)} events/s (${written} values written in ${seconds.toFixed(1)} s), from the change p50 ${
        formatDuration(report.changeP50)
      } p99 ${formatDuration(report.changeP99)}, from the write p50 ${formatDuration(report.p50)} p99 ${
        formatDuration(report.p99)
      }, ${written - report.min} lost, RSS ${formatMiB(rssStart)} → ${formatMiB(rssEnd)} (the bench's process, gateway in it)`,
      ratio: delivered / asked,
      ...(canPin() ? {} : { note: notPinned })
    }]
  })).pipe(Effect.mapError((cause) => new BenchFailed({ benchCase: name, contender: "watch clients", cause })))

export const cases: ReadonlyArray<SelfMeasuredCase> = [100, 1_000].map((watchers) => {
  const name = `watch fan-out: ${watchers} watchers + 1 stalled`
  return { name, measure: (options) => measure(name, watchers, options) }
})
