import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { Agent, request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { Effect, ManagedRuntime, Option } from "effect"
import { HttpServer } from "effect/http"
import { defaultGatewayConfig } from "../../src/GatewayConfig.ts"
import { gatewayLayer } from "../../src/main.ts"

/**
 * Watch fan-out under load (issue 8): N watchers of every getter, in a separate process, on a home
 * whose getters change 100 times a second in total (values written over REST, each carrying the time it
 * was sent), plus one watcher that stops reading. Not a ratio against a baseline: it reports delivered
 * events per second, latency from the write to the client, values lost by clients that keep up, and
 * the gateway's RSS at the start and the end of the window (flat means the stalled client costs nothing).
 */
export interface LoadResult {
  readonly name: string
  readonly watchers: number
  readonly written: number
  readonly seconds: number
  readonly deliveredPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly lost: number
  readonly rssStartMiB: number
  readonly rssEndMiB: number
}

export interface LoadCase {
  readonly name: string
  readonly run: Effect.Effect<LoadResult, unknown>
}

const getters = 10
const valuesPerSecond = 100
const warmupMs = 2_000
const measureMs = 10_000
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
const rssMiB = () => process.memoryUsage().rss / 2 ** 20

const measure = (watchers: number) =>
  Effect.promise(async (): Promise<LoadResult> => {
    const dataDir = mkdtempSync(join(tmpdir(), "gateway-bench-"))
    const homeFile = join(dataDir, "home.json")
    writeFileSync(homeFile, JSON.stringify(home))
    const runtime = ManagedRuntime.make(
      gatewayLayer({ ...defaultGatewayConfig, port: 0, clock: false, dataDir, home: Option.some(homeFile) })
    )
    // Enough sockets that a write rarely waits for a free one: that wait would count as watch latency.
    const agent = new Agent({ keepAlive: true, maxSockets: 64 })
    try {
      const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
      if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
      const clients = spawn(
        process.execPath,
        [join(import.meta.dirname, "..", "watch", "loadClients.js"), `ws://127.0.0.1:${address.port}/api/v1/channels/watch`, String(watchers), String(getters)],
        { stdio: ["pipe", "pipe", "inherit"] }
      )
      const lines = createInterface({ input: clients.stdout })[Symbol.asyncIterator]()
      const readLine = async () => String((await lines.next()).value)
      if ((await readLine()) !== "ready") throw new Error("the load clients did not start")

      /** One value written over REST; whether the gateway took it. */
      const write = (i: number) =>
        new Promise<boolean>((resolve) => {
          const body = JSON.stringify({ select: { id: `setter:sensor-${i % getters}@bench` }, value: sentAt(now()) })
          const req = request({ host: "127.0.0.1", port: address.port, path: "/api/v1/channels/set", method: "PUT", agent }, (res) => {
            res.resume()
            res.on("end", () => resolve(res.statusCode === 200))
          })
          // A write that fails is a value not written, not one lost by the watchers.
          req.on("error", () => resolve(false))
          req.end(body)
        })
      /** Writes `valuesPerSecond` for `ms`, paced against the clock so that a late tick is caught up; answers how many the gateway took. */
      const writeFor = async (ms: number) => {
        const start = now()
        let issued = 0
        const pending: Array<Promise<boolean>> = []
        while (now() - start < ms) {
          const due = Math.floor(((now() - start) * valuesPerSecond) / 1000)
          while (issued < due) pending.push(write(issued++))
          await new Promise((resolve) => setTimeout(resolve, 2))
        }
        return (await Promise.all(pending)).filter((taken) => taken).length
      }
      // Warm-up (JIT, buffers), whose latencies are forgotten.
      await writeFor(warmupMs)
      await new Promise((resolve) => setTimeout(resolve, 500))
      clients.stdin.write("reset\n")
      if ((await readLine()) !== "ok") throw new Error("the load clients did not reset")
      const rssStartMiB = rssMiB()
      const from = now()
      const written = await writeFor(measureMs)
      const to = now()
      // Time for the last values to arrive.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const rssEndMiB = rssMiB()
      clients.stdin.write(`report ${from} ${to}\n`)
      const report = JSON.parse(await readLine()) as { min: number; max: number; p50: number; p99: number }
      const seconds = (to - from) / 1000
      return {
        name: `watch fan-out, ${watchers} watchers + 1 stalled`,
        watchers,
        written,
        seconds,
        deliveredPerSecond: (report.min * watchers) / seconds,
        p50Ms: report.p50,
        p99Ms: report.p99,
        lost: written - report.min,
        rssStartMiB,
        rssEndMiB
      }
    } finally {
      agent.destroy()
      await runtime.dispose()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

export const loads: ReadonlyArray<LoadCase> = [100, 1_000].map((watchers) => ({
  name: `watch fan-out, ${watchers} watchers`,
  run: measure(watchers)
}))

/** A plain-text table of load results. */
export const formatLoads = (results: ReadonlyArray<LoadResult>): string => {
  const rows = [
    ["case", "values written", "delivered events/s", "p50", "p99", "lost (keeping up)", "gateway RSS start → end"],
    ...results.map((r) => [
      r.name,
      `${r.written} in ${r.seconds.toFixed(1)} s`,
      Math.round(r.deliveredPerSecond).toString(),
      `${r.p50Ms.toFixed(1)} ms`,
      `${r.p99Ms.toFixed(1)} ms`,
      String(r.lost),
      `${r.rssStartMiB.toFixed(0)} → ${r.rssEndMiB.toFixed(0)} MiB`
    ])
  ]
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? "").length))) ?? []
  return rows.map((row) => row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join("  ").trimEnd()).join("\n")
}
