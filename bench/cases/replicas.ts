import { Data, Effect } from "effect"
import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"
import { type ReplicaHome, startReplicaHome } from "../../test/support/replicaHome.ts"
import { BenchFailed, type HarnessOptions, type SelfMeasuredCase } from "../Harness.ts"
import type { LoadReport, LoadRequest } from "../load/LoadReport.ts"
import { runWrk, wrkReportScript, wrkScript } from "../load/Wrk.ts"
import { ensureWrk } from "../load/WrkInstall.ts"
import { formatCount, formatDuration, type Row } from "../Row.ts"
import { tempDir } from "../support/TempDir.ts"

/**
 * Requests through HAProxy on docs/replicas.md's file (issue 37), to one replica and to three: the
 * replica tests' home (test/support/replicaHome.ts: PostgreSQL, mosquitto, the bridge player, the
 * gateways, HAProxy), loaded by wrk. Three requests touch the database: a login (a session token kept),
 * a revocation (each request revokes another of the tokens inserted beforehand through the store), a tag
 * added; fetch_values does not (a demo-home getter, answered by the simulator). With one replica, the
 * documented file's three servers are that one replica. Nothing is pinned to a CPU: the replicas,
 * HAProxy, PostgreSQL and wrk share the machine's cores, so the figures say which way, not how far.
 */

class ReplicasFailed extends Data.TaggedError("ReplicasFailed")<{ readonly reason: string }> {
  override get message(): string {
    return this.reason
  }
}

/** docs/replicas.md's addresses, replaced by free ports on 127.0.0.1 (as test/replicas/failover.test.ts does). */
const documented = { frontend: "10.0.0.10:80", servers: ["10.0.0.11:3000", "10.0.0.12:3000", "10.0.0.13:3000"] } as const

const connections = 16

/** Tokens to revoke: more than a run revokes at this machine's pace (a few hundred a second). */
const revocable = 4_000

const getter = demoHome.services[0]?.getters?.[0]?.id ?? ""

/** The revocation's script: `init` as the report script's, the body's `FIRST-LAST` the ids it revokes, one each request, in turn. */
const revocationScript = `
local first, last, next_id
function init(args)
  wrk.method = args[1]
  first, last = args[2]:match("^(%d+)-(%d+)$")
  first, last = tonumber(first), tonumber(last)
  next_id = first
  for i = 3, #args do
    local name, value = args[i]:match("^([^:]+):%s*(.*)$")
    wrk.headers[name] = value
  end
end

function request()
  local body = '{"id": ' .. next_id .. '}'
  next_id = next_id < last and next_id + 1 or first
  return wrk.format(nil, nil, nil, body)
end
`

/** API tokens of the admin, inserted through the store; answers their ids as `FIRST-LAST`. */
const insertRevocable = (home: ReplicaHome) =>
  Effect.tryPromise({
    try: () => home.insertTokens("admin", revocable),
    catch: (cause) => new ReplicasFailed({ reason: `inserting the tokens to revoke failed: ${String(cause)}` })
  }).pipe(Effect.map((tokens) => `${Math.min(...tokens.map(({ id }) => id))}-${Math.max(...tokens.map(({ id }) => id))}`))

interface Operation {
  readonly name: string
  /** Requests kept in flight: a login hashes a password for tens of milliseconds, and a few at once already fill the cores. */
  readonly connections: number
  readonly request: (home: ReplicaHome, revocableIds: string) => Omit<LoadRequest, "connections" | "seconds">
  /** Its own wrk script; the report script otherwise. */
  readonly revokes?: true
}

const json = (home: ReplicaHome) => ({ authorization: `Bearer ${home.adminToken}`, "content-type": "application/json" })

const operations: ReadonlyArray<Operation> = [
  {
    name: "login",
    connections: 2,
    request: (home) => ({
      url: `${home.haproxy.baseUrl}/users/login`,
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`admin:${home.adminPassword}`).toString("base64")}` }
    })
  },
  {
    name: "revocation of a token",
    connections,
    request: (home, ids) => ({ url: `${home.haproxy.baseUrl}/api/v1/tokens/revoke`, method: "POST", headers: json(home), body: ids }),
    revokes: true
  },
  {
    name: "tag change",
    connections,
    request: (home) => ({
      url: `${home.haproxy.baseUrl}/api/v1/channels/tag`,
      method: "POST",
      headers: json(home),
      body: JSON.stringify({ set: { id: getter }, tags: ["bench"] })
    })
  },
  {
    name: "fetch_values",
    connections,
    request: (home) => ({ url: `${home.haproxy.baseUrl}/api/v1/channels/get`, method: "PUT", headers: json(home), body: JSON.stringify({ id: getter }) })
  }
]

/** Each operation's report through HAProxy to `replicas` replicas. */
const loadThrough = (replicas: number, seconds: number) =>
  Effect.scoped(Effect.gen(function*() {
    const home = yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => startReplicaHome(replicas, documented), catch: (cause) => new ReplicasFailed({ reason: String(cause) }) }),
      (started) => Effect.promise(() => started.stop())
    )
    const ids = yield* insertRevocable(home)
    const reportScript = yield* wrkReportScript
    const revocation = yield* wrkScript(revocationScript)
    const reports: Array<LoadReport> = []
    for (const operation of operations) {
      const report = yield* runWrk(operation.revokes ? revocation : reportScript, { ...operation.request(home, ids), connections: operation.connections, seconds })
      if (report.notOk > 0 || report.errors > 0 || report.ok === 0) {
        return yield* new ReplicasFailed({
          reason: `${operation.name}, ${replicas} replica(s): ${report.ok} answers below 400, ${report.notOk} other, ${report.errors} errors or time-outs`
        })
      }
      reports.push(report)
    }
    return reports
  }))

const figures = (report: LoadReport | undefined): string =>
  report === undefined ? "n/a" : `${formatCount(report.ok / report.seconds)} req/s, p99 ${formatDuration(report.p99Ms)}`

const name = "replicas: through HAProxy"

const measure = (options: HarnessOptions): Effect.Effect<ReadonlyArray<Row>, BenchFailed> =>
  Effect.scoped(Effect.gen(function*() {
    yield* ensureWrk
    // PostgreSQL's and mosquitto's folders, under the bench's own temporary folder (test/support puts them there).
    process.env["GATEWAY_TEST_ROOT"] ??= yield* tempDir
    const seconds = Math.max(3, Math.round(options.budgetMs / 1_000))
    const one = yield* loadThrough(1, seconds)
    const three = yield* loadThrough(3, seconds)
    return operations.map((operation, index): Row => {
      const [baseline, subject] = [one[index], three[index]]
      return {
        name: `${name}: ${operation.name}`,
        baseline: "1 replica",
        subject: "3 replicas",
        baselineFigures: figures(baseline),
        subjectFigures: figures(subject),
        ratio: baseline === undefined || subject === undefined ? Number.NaN : (subject.ok / subject.seconds) / (baseline.ok / baseline.seconds),
        note: "replicas: nothing pinned to a CPU (the replicas, HAProxy, PostgreSQL and wrk share the cores); one run: a direction, not a figure"
      }
    })
  })).pipe(Effect.mapError((cause) => new BenchFailed({ benchCase: name, contender: "HAProxy", cause })))

export const cases: ReadonlyArray<SelfMeasuredCase> = [{ name, measure }]
