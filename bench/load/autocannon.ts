import autocannon from "autocannon"
import { decodeLoadRequest, type LoadReport } from "./LoadReport.ts"

/**
 * The load generator of the loopback benchmarks, in a process of its own (pinned to the other CPU than
 * the server's): `node autocannon.js REQUEST-JSON` (see LoadReport). Keeps `connections` keep-alive
 * connections busy with the request for `seconds`, then prints one LoadReport line and exits.
 */
const request = decodeLoadRequest(process.argv[2] ?? "")

const result = await autocannon({
  url: request.url,
  method: request.method,
  headers: request.headers,
  ...(request.body === undefined ? {} : { body: request.body }),
  connections: request.connections,
  duration: request.seconds,
  // A request still unanswered after this long counts as an error: the server is not keeping up.
  timeout: 10
})

const report: LoadReport = {
  ok: result["2xx"],
  notOk: result.non2xx,
  errors: result.errors + result.timeouts,
  seconds: result.duration,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99
}
console.log(JSON.stringify(report))
