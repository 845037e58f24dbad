import { mkdtempSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Redacted } from "effect"
import { hashToken, mintToken } from "../../src/auth/TokenSecret.ts"
import { lamp, watchHome } from "../http/watch/watchHome.ts"
import { closedWithin, openWatch, type WatchClient } from "../support/openWatch.ts"
import { type Postgres, startPostgres } from "../support/postgres.ts"
import { type RunningGateway, runGateway, spawnGateway } from "../support/spawnGateway.ts"

/**
 * Three gateways on one PostgreSQL database (no load balancer): a change made through one of them, or
 * by the command line, takes effect on the others within a second (docs/replicas.md, "Changes reach
 * every replica"), and within five after their listening connections are killed.
 */

let postgres: Postgres
let database: string
let replicas: ReadonlyArray<RunningGateway> = []
/** The first-run admin's token, printed by the one replica that made the admin. */
let admin: string

const folder = () => mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? "/tmp", "gateway-replica-"))
const withPassword = () => ({ PGPASSWORD: postgres.password })

beforeAll(async () => {
  postgres = await startPostgres()
  database = await postgres.createDatabase()
  const home = join(folder(), "home.json")
  writeFileSync(home, JSON.stringify(watchHome))
  const serve = ["serve", "--database-url", postgres.url(database), "--home", home, "--port", "0", "--no-dashboard", "--no-clock"]
  replicas = await Promise.all([1, 2, 3].map(() => spawnGateway([...serve, "--data", folder()], 20_000, withPassword())))
  admin = replicas.flatMap((replica) => replica.token ?? [])[0] ?? ""
}, 60_000)
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()))
  await postgres?.stop()
})

const replica = (index: number): RunningGateway => {
  const found = replicas[index]
  if (found === undefined) throw new Error(`replica ${index} did not start`)
  return found
}

/** `gateway …args --database-url …` on the replicas' database, which must succeed; answers what it printed. */
const cli = async (...args: ReadonlyArray<string>) => {
  const exited = await runGateway([...args, "--database-url", postgres.url(database)], 20_000, withPassword())
  expect({ args, code: exited.code, stderr: exited.stderr }).toEqual({ args, code: 0, stderr: "" })
  return exited.stdout
}

/** A new API token of `user`, kept straight into the database as the store keeps it (no creation quota in the way). */
const insertedToken = (user = "admin"): { readonly id: number; readonly token: string } => {
  const token = mintToken()
  const [id] = postgres.query(
    database,
    `INSERT INTO tokens (token_hash, user_id, kind, label, created_at)
     SELECT '${hashToken(token)}', id, 'api', 'trial', 0 FROM users WHERE username = '${user}' RETURNING id`
  )
  return { id: Number(id), token: Redacted.value(token) }
}

const call = (gateway: RunningGateway, token: string, method = "GET", path = "/api/v1/services", body?: unknown) =>
  fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** A watch of the lamp with `token` on `gateway`, registered. */
const watchLamp = async (gateway: RunningGateway, token: string): Promise<WatchClient> => {
  const client = await openWatch({ baseUrl: gateway.baseUrl, token })
  client.send({ select: { id: lamp } })
  expect(await client.next()).toEqual({ GetterAdded: lamp })
  return client
}

/** Milliseconds from `since` until `gateway` answers 401 to `token` (asked every 10 ms), or `limitMs` if never. */
const refusedAfter = async (gateway: RunningGateway, token: string, since: number, limitMs: number) => {
  while (performance.now() - since < limitMs) {
    const response = await call(gateway, token)
    await response.arrayBuffer()
    if (response.status === 401) return performance.now() - since
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return limitMs
}

/** Milliseconds from `since` until the socket closes for its token's end, or `limitMs` if it does not. */
const endedAfter = async (client: WatchClient, since: number, limitMs: number) => {
  const closed = await closedWithin(client, limitMs)
  expect(closed).toEqual({ code: 1008, reason: "the token was revoked or expired" })
  return performance.now() - since
}

/**
 * One trial: a token in use on replicas B and C (a watch socket on each, and a REST call each, so that
 * they have it cached), then `end` it; answers how long until both sockets closed and both refused it,
 * from the request that ends it (a replica's), or from its end (the command line's: a process that
 * starts, and hashes a password, before it changes anything).
 */
const trial = async (token: string, end: () => Promise<unknown>, limitMs: number, from: "request" | "ended" = "request") => {
  const watchers = await Promise.all([1, 2].map((index) => watchLamp(replica(index), token)))
  for (const index of [1, 2]) expect((await call(replica(index), token)).status).toBe(200)
  let since = performance.now()
  await end()
  if (from === "ended") since = performance.now()
  const times = await Promise.all([
    ...watchers.map((client) => endedAfter(client, since, limitMs)),
    ...[1, 2].map((index) => refusedAfter(replica(index), token, since, limitMs))
  ])
  return Math.max(...times)
}

const revokeThroughA = (id: number) => async () => {
  expect((await call(replica(0), admin, "POST", "/api/v1/tokens/revoke", { id })).status).toBe(204)
}

describe("changes made through one replica reach the others", () => {
  it("a token revoked through A: its sockets on B and C close and they answer 401, within 1 s (worst of 20 trials)", async () => {
    const times: Array<number> = []
    for (let n = 0; n < 20; n++) {
      const { id, token } = insertedToken()
      times.push(await trial(token, revokeThroughA(id), 1_000))
    }
    expect(Math.max(...times), `times of the 20 trials, in ms: ${times.map(Math.round).join(" ")}`).toBeLessThan(1_000)
  })

  it("a tag added through A reaches the watchers on B and C as GetterAdded within 1 s, and its removal as GetterRemoved", async () => {
    const watchers = await Promise.all([1, 2].map(async (index) => {
      const client = await openWatch({ baseUrl: replica(index).baseUrl, token: admin })
      client.send([{ select: { tags: ["porch"] } }])
      return client
    }))
    const tag = (method: string) => call(replica(0), admin, method, "/api/v1/channels/tag", { set: { id: lamp }, tags: ["porch"] })
    /** The first frame of each watcher that is not a value, and how long it took to come. */
    const heard = (since: number) =>
      Promise.all(watchers.map(async (client) => {
        for (;;) {
          const frame = await client.next(1_000)
          if (typeof frame === "object" && frame !== null && !("Value" in frame)) return { frame, ms: performance.now() - since }
        }
      }))
    let since = performance.now()
    expect((await tag("POST")).status).toBe(200)
    const added = await heard(since)
    expect(added.map(({ frame }) => frame)).toEqual([{ GetterAdded: lamp }, { GetterAdded: lamp }])
    since = performance.now()
    expect((await tag("DELETE")).status).toBe(200)
    const removed = await heard(since)
    expect(removed.map(({ frame }) => frame)).toEqual([{ GetterRemoved: lamp }, { GetterRemoved: lamp }])
    for (const { ms } of [...added, ...removed]) expect(ms).toBeLessThan(1_000)
    await Promise.all(watchers.map((client) => client.close()))
  })

  it("a user removed by the command line: its tokens stop on every replica within 1 s", async () => {
    await cli("users", "add", "dora")
    const token = (await cli("tokens", "create", "--user", "dora")).trim()
    expect(await trial(token, () => cli("users", "remove", "dora"), 1_000, "ended")).toBeLessThan(1_000)
  })

  it("a password changed by the command line: the user's sessions end on every replica within 1 s", async () => {
    const password = /^password: (\S+)$/m.exec(await cli("users", "add", "erin"))?.[1] ?? ""
    const login = await fetch(`${replica(0).baseUrl}/users/login`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`erin:${password}`).toString("base64")}` }
    })
    expect(login.status).toBe(201)
    const { session_token: session } = await login.json() as { readonly session_token: string }
    expect(await trial(session, () => cli("users", "passwd", "erin"), 1_000, "ended")).toBeLessThan(1_000)
  })

  it("after the listening connections are killed: a token revoked through A still ends on B and C within 5 s", async () => {
    const killed = postgres.query(
      database,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND query LIKE 'LISTEN%'`
    )
    expect(killed).toEqual(["t", "t", "t"])
    const { id, token } = insertedToken()
    expect(await trial(token, revokeThroughA(id), 5_000)).toBeLessThan(5_000)
  })

  it("the command line on a database it cannot use says so in one line, exit 1", async () => {
    const exited = await runGateway(["users", "list", "--database-url", postgres.url(database)], 20_000, { PGPASSWORD: "wrong" })
    expect(exited.code).toBe(1)
    expect(exited.stderr).toMatch(new RegExp(`^gateway: cannot use the database ${postgres.url(database)}: .*password authentication failed.*\\n$`))
  })
})
