import { Agent, request } from "node:http"
import { join } from "node:path"
import { Effect } from "effect"
import { BenchFailed, type HarnessOptions, median, type SelfMeasuredCase } from "../Harness.ts"
import { formatDuration, type Row } from "../Row.ts"
import { adminToken } from "../support/AdminToken.ts"
import { serverCpu, serverProcess } from "../support/ChildProcess.ts"
import { cpuMs } from "../support/ProcessStats.ts"
import { tempDir } from "../support/TempDir.ts"
import { gatewayBin } from "./loopback.ts"

/**
 * Issue 32, item 2: 1 MiB of arrays nested 500,000 deep around one string, sent with a token to
 * `PUT /api/v1/channels/set` and refused with 400 ("nested deeper than 512 levels"), with the string
 * escaped (`"\n"`, read by the reader of escaped text if it gets that far) and without (`"n"`); and
 * `/health`'s p99 while 8 clients send the escaped one, against its p99 on the idle gateway. The gateway
 * is `gateway serve` in a process of its own; the clients are this process (`node:http`: wrk takes a
 * body on its command line, which holds at most 128 KiB in one argument).
 */

const depth = 500_000
const bodyOf = (string: string) => {
  const body = "[".repeat(depth) + string + "]".repeat(depth)
  return Buffer.from(body + " ".repeat(2 ** 20 - body.length)) // padded to 1 MiB exactly
}
const escaped = bodyOf("\"\\n\"")
const unescaped = bodyOf("\"n\"")
const senders = 8

/** One request over `agent`'s connections; answers its status once the answer is read. */
const exchange = (url: string, method: string, headers: Readonly<Record<string, string>>, body: Buffer | undefined, agent: Agent) =>
  new Promise<number>((resolve, reject) => {
    const sent = request(url, { method, agent, headers: body === undefined ? headers : { ...headers, "content-length": String(body.length) } }, (response) => {
      response.resume().on("end", () => resolve(response.statusCode ?? 0))
    })
    sent.on("error", reject)
    sent.end(body)
  })

const timed = async (send: () => Promise<number>, expected: number): Promise<number> => {
  const start = performance.now()
  const status = await send()
  if (status !== expected) throw new Error(`answered ${status}, not ${expected}`)
  return performance.now() - start
}

const p99 = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? Number.NaN

const measure = (options: HarnessOptions): Effect.Effect<ReadonlyArray<Row>, BenchFailed> =>
  Effect.scoped(Effect.gen(function*() {
    const dir = yield* tempDir
    const gateway = yield* serverProcess("gateway", [gatewayBin, "serve", "--data", join(dir, "data"), "--port", "0", "--no-clock"], {
      cpu: serverCpu,
      timeoutMs: 60_000
    })
    const token = yield* adminToken(gateway)
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
    const set = `${gateway.url}/api/v1/channels/set`
    const health = `${gateway.url}/health`
    const rounds = options.rounds ?? 20
    const seconds = Math.max(2, Math.round((options.budgetMs * 0.8) / 1_000))
    return yield* Effect.tryPromise({ catch: (cause) => cause, try: async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: senders + 1 })
      try {
        // The time and the gateway's CPU per refused body, each body in turn.
        const refusals = { escaped: [] as Array<number>, unescaped: [] as Array<number> }
        const cpu = { escaped: 0, unescaped: 0 }
        for (let round = 0; round < rounds + 2; round++) {
          for (const kind of ["escaped", "unescaped"] as const) {
            const before = cpuMs(gateway.pid)
            const ms = await timed(() => exchange(set, "PUT", headers, kind === "escaped" ? escaped : unescaped, agent), 400)
            if (round < 2) continue // warm-up
            refusals[kind].push(ms)
            cpu[kind] += cpuMs(gateway.pid) - before
          }
        }
        // /health, probed one request at a time for `seconds`: idle, then while the senders send.
        const probe = async () => {
          const latencies: Array<number> = []
          const end = performance.now() + seconds * 1_000
          while (performance.now() < end) latencies.push(await timed(() => exchange(health, "GET", {}, undefined, agent), 200))
          return latencies
        }
        const idle = await probe()
        let sending = true
        let sent = 0
        const sender = async () => {
          while (sending) {
            await timed(() => exchange(set, "PUT", headers, escaped, agent), 400)
            sent++
          }
        }
        const load = Array.from({ length: senders }, sender)
        const loaded = await probe()
        sending = false
        await Promise.all(load)
        const perBody = (kind: "escaped" | "unescaped") =>
          `${formatDuration(median(refusals[kind]))} per 400, ${(cpu[kind] / refusals[kind].length).toFixed(0)} ms CPU`
        return [
          {
            name: "deep body: 1 MiB nested 500,000 deep, refused by PUT /api/v1/channels/set",
            baseline: "without a backslash",
            subject: "with one escaped string",
            baselineFigures: perBody("unescaped"),
            subjectFigures: perBody("escaped"),
            ratio: median(refusals.unescaped) / median(refusals.escaped)
          },
          {
            name: `deep body: /health p99 while ${senders} clients send it escaped`,
            baseline: "/health on the idle gateway",
            subject: `/health beside ${senders} senders`,
            baselineFigures: `p99 ${formatDuration(p99(idle))} (${idle.length} probes)`,
            subjectFigures: `p99 ${formatDuration(p99(loaded))} (${loaded.length} probes, ${sent} bodies refused)`,
            ratio: p99(idle) / p99(loaded)
          }
        ] satisfies ReadonlyArray<Row>
      } finally {
        agent.destroy()
      }
    } })
  })).pipe(Effect.mapError((cause) => new BenchFailed({ benchCase: "deep body", contender: "gateway", cause })))

export const cases: ReadonlyArray<SelfMeasuredCase> = [{ name: "deep body: 1 MiB nested 500,000 deep", measure }]
