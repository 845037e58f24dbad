import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { loadCpu, runToEnd } from "../support/ChildProcess.ts"
import { tempDir } from "../support/TempDir.ts"
import { decodeLoadReport, type LoadRequest } from "./LoadReport.ts"

/**
 * One run of wrk (one thread, pinned to the load generator's CPU): `connections` keep-alive connections
 * busy with one request for `seconds`. wrk's own summary rounds its percentiles and has no p99 unless
 * asked; a Lua script of ours sets the request (method, body, headers: wrk's command line has no
 * method or body) and, at the end, prints one LoadReport line of JSON with p50 and p99 exactly.
 */

/**
 * The script's arguments (after `--`): the method, the body (empty for none), then one `name: value` per
 * header. `init` runs in each thread before wrk builds its request from `wrk.method`, `wrk.body` and
 * `wrk.headers` (adding Content-Length); `done` gets wrk's totals, with latencies in microseconds. wrk
 * counts an answer of 400 or above as a status error.
 */
const reportScript = `
function init(args)
  wrk.method = args[1]
  if args[2] ~= "" then wrk.body = args[2] end
  for i = 3, #args do
    local name, value = args[i]:match("^([^:]+):%s*(.*)$")
    wrk.headers[name] = value
  end
end
`

/** The script's `done`: the LoadReport line, also for scripts that build their requests otherwise (wrkScript). */
const reportDone = `
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"ok":%d,"notOk":%d,"errors":%d,"seconds":%.6f,"p50Ms":%.3f,"p99Ms":%.3f}\\n',
    summary.requests - e.status, e.status, e.connect + e.read + e.write + e.timeout,
    summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3))
end
`

/** `script` (its `init`, and a `request` if it has one) and the report's `done`, written to a file of the scope's. */
export const wrkScript = (script: string) =>
  Effect.map(tempDir, (dir) => {
    const file = join(dir, "report.lua")
    writeFileSync(file, script + reportDone)
    return file
  })

/** The report script, written to a file of the scope's. */
export const wrkReportScript = wrkScript(reportScript)

/** A request still unanswered after this long counts as a time-out: the server is not keeping up. */
const timeoutSeconds = 10

/** Runs wrk with `script` (see wrkReportScript) and reads the report its last line holds. */
export const runWrk = (script: string, request: LoadRequest) =>
  Effect.gen(function*() {
    const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`)
    const args = [
      "-t1", `-c${request.connections}`, `-d${request.seconds}s`, `--timeout`, `${timeoutSeconds}s`, "-s", script,
      request.url, "--", request.method, request.body ?? "", ...headers
    ]
    const stdout = yield* runToEnd("wrk", args, { executable: "wrk", cpu: loadCpu, timeoutMs: (request.seconds + timeoutSeconds + 20) * 1_000 })
    return yield* decodeLoadReport(stdout.trimEnd().split("\n").at(-1) ?? "")
  })
