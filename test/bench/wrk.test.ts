import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import type { LoadRequest } from "../../bench/load/LoadReport.ts"
import { runWrk, wrkReportScript } from "../../bench/load/Wrk.ts"
import { requireProgram, wrk as wrkProgram } from "../support/requiredProgram.ts"

/**
 * The loopback benchmarks' load generator (bench/load/Wrk.ts): a real wrk run over loopback against a
 * tiny node:http server, read through the report script. wrk is a Debian package, not an npm one: where
 * it is not installed, these tests fail saying so (`.ci/run` installs it).
 */

interface Seen {
  readonly method: string | undefined
  readonly body: string
  readonly header: string | undefined
  readonly length: string | undefined
}

const servers: Array<Server> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

/** A server answering `status` to every request, and what it was sent. */
const serve = async (status: number) => {
  const seen: Array<Seen> = []
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = ""
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk))
    request.on("end", () => {
      const header = request.headers["x-bench"]
      seen.push({ method: request.method, body, header: typeof header === "string" ? header : undefined, length: request.headers["content-length"] })
      response.writeHead(status, { "content-type": "text/plain" }).end("answer")
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/path`, seen }
}

const wrk = (request: LoadRequest) => Effect.runPromise(Effect.scoped(Effect.flatMap(wrkReportScript, (script) => runWrk(script, request))))

beforeAll(() => void requireProgram(wrkProgram))

describe("wrk with the report script", () => {
  it("sends the request's method, body and headers, and reports its answers and latency percentiles", async () => {
    const { url, seen } = await serve(200)
    const report = await wrk({ url, method: "PUT", headers: { "x-bench": "yes", "content-type": "application/json" }, body: `[{"id":"a"}]`, connections: 4, seconds: 1 })
    expect(report).toMatchObject({ notOk: 0, errors: 0 })
    expect(report.ok).toBeGreaterThan(0)
    // The server also saw the requests still under way when wrk stopped.
    expect(seen.length).toBeGreaterThanOrEqual(report.ok)
    expect(report.seconds).toBeGreaterThan(0)
    expect(report.p50Ms).toBeGreaterThan(0)
    expect(report.p99Ms).toBeGreaterThanOrEqual(report.p50Ms)
    expect(new Set(seen.map((s) => JSON.stringify(s)))).toEqual(new Set([JSON.stringify({ method: "PUT", body: `[{"id":"a"}]`, header: "yes", length: "12" })]))
  })

  it("sends no body where the request has none, and counts answers of 400 and above apart", async () => {
    const { url, seen } = await serve(503)
    const report = await wrk({ url, method: "GET", headers: {}, connections: 2, seconds: 1 })
    expect(report).toMatchObject({ ok: 0, errors: 0 })
    expect(report.notOk).toBeGreaterThan(0)
    expect(new Set(seen.map((s) => JSON.stringify(s)))).toEqual(new Set([JSON.stringify({ method: "GET", body: "", header: undefined, length: undefined })]))
  })
})
