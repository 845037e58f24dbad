import { chmodSync, mkdtempSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { supportedVersion } from "../../src/store/PgMigrations.ts"
import { type Postgres, startPostgres } from "../support/postgres.ts"
import { type RunningGateway, runGateway, spawnGateway } from "../support/spawnGateway.ts"

/** `gateway serve --database-url`: users, tokens and tags in PostgreSQL, several gateways on one database. */

let postgres: Postgres
/** The schema versions this gateway records, and one a newer gateway would. */
const everyVersion = Array.from({ length: supportedVersion }, (_, index) => String(index + 1))
const future = supportedVersion + 1
beforeAll(async () => {
  postgres = await startPostgres()
})
afterAll(() => postgres.stop())

const folder = () => mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? "/tmp", "gateway-pg-"))

/** The gateway's own flags for a quick start on `database`, the demo home, no dashboard. */
const serveOn = (database: string, ...more: ReadonlyArray<string>) => [
  "serve", "--database-url", postgres.url(database), "--port", "0", "--data", folder(), "--no-dashboard", "--no-clock", ...more
]

/** No PGPASSWORD (empty is none, as for libpq), whatever the test's own environment holds. */
const noPasswordVariable = { PGPASSWORD: "" }

describe("gateway serve --database-url, three at once", () => {
  // Alone: what it times is how quickly three gateways start, not how they share the machine with other tests.
  it("starts three gateways at once on an empty database: healthy within 10 s, one schema, one admin, its credentials printed once", async () => {
    const database = await postgres.createDatabase()
    const started = Date.now()
    const gateways: ReadonlyArray<RunningGateway> = await Promise.all(
      [1, 2, 3].map(() => spawnGateway(serveOn(database), 20_000, { PGPASSWORD: postgres.password }))
    )
    try {
      const health = await Promise.all(gateways.map((gateway) => fetch(`${gateway.baseUrl}/health`).then((response) => response.status)))
      expect(health).toEqual([200, 200, 200])
      expect(Date.now() - started).toBeLessThan(10_000)
      expect(gateways.filter((gateway) => /^admin password: /m.test(gateway.stdout())).length).toBe(1)
      expect(gateways.filter((gateway) => gateway.token !== undefined).length).toBe(1)
      expect(postgres.query(database, "SELECT username FROM users")).toEqual(["admin"])
      expect(postgres.query(database, "SELECT migration_id FROM effect_sql_migrations ORDER BY 1")).toEqual(everyVersion)
      // The admin's token works on every gateway: they share one store.
      const token = gateways.flatMap((gateway) => gateway.token ?? [])[0]
      for (const gateway of gateways) {
        const response = await fetch(`${gateway.baseUrl}/api/v1/services`, { headers: { authorization: `Bearer ${token}` } })
        expect(response.status).toBe(200)
      }
    } finally {
      await Promise.all(gateways.map((gateway) => gateway.stop()))
    }
  })
})

// Side by side: each test has a database of its own, and mostly waits for gateways to start.
describe.concurrent("gateway serve --database-url", () => {
  it("refuses a URL holding a password (exit 2), saying where the password goes, without echoing it", async () => {
    const exited = await runGateway(["serve", "--database-url", `postgres://postgres:${postgres.password}@127.0.0.1:${postgres.port}/postgres`])
    expect(exited.code).toBe(2)
    expect(exited.stderr).toContain("put the password in PGPASSWORD, a --database-password-file or ~/.pgpass")
    expect(exited.stderr).not.toContain(postgres.password)
  })

  it("takes the password from --database-password-file, or else from ~/.pgpass", async () => {
    const database = await postgres.createDatabase()
    const passwordFile = join(folder(), "password")
    writeFileSync(passwordFile, `${postgres.password}\nnot this line\n`)
    const home = folder()
    writeFileSync(join(home, ".pgpass"), `# comment\nother:5432:*:*:wrong\n127.0.0.1:${postgres.port}:*:postgres:${postgres.password}\n`)
    chmodSync(join(home, ".pgpass"), 0o600)
    for (const [args, env] of [[["--database-password-file", passwordFile], {}], [[], { HOME: home }]] as const) {
      const gateway = await spawnGateway(serveOn(database, ...args), 20_000, { ...noPasswordVariable, ...env })
      await gateway.stop()
    }
  })

  it("answers /health 503 with the reason while its database cannot be reached (a load balancer takes it out), /ping 204, and 200 once it can", async () => {
    const database = await postgres.createDatabase()
    const gateway = await spawnGateway(serveOn(database), 20_000, { PGPASSWORD: postgres.password })
    const closed = (allowed: boolean) => postgres.query("postgres", `ALTER DATABASE ${database} ALLOW_CONNECTIONS ${allowed}`)
    try {
      closed(false)
      postgres.query("postgres", `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`)
      const out = await fetch(`${gateway.baseUrl}/health`)
      expect(out.status).toBe(503)
      expect(await out.json()).toMatch(new RegExp(`^the database ${postgres.url(database)} cannot be reached: `))
      expect((await fetch(`${gateway.baseUrl}/ping`)).status).toBe(204)
      closed(true)
      const back = await fetch(`${gateway.baseUrl}/health`)
      expect({ status: back.status, body: await back.json() }).toEqual({ status: 200, body: { status: "ok" } })
    } finally {
      closed(true)
      await gateway.stop()
    }
  })

  it("says in one line why it cannot use the database: a wrong password, a database a newer gateway wrote (exit 1)", async () => {
    const database = await postgres.createDatabase()
    const wrong = await runGateway(serveOn(database), 20_000, { PGPASSWORD: "wrong" })
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toMatch(new RegExp(`^gateway: cannot use the database ${postgres.url(database)}: .* failed: .*password authentication failed.*\\n$`))

    const gateway = await spawnGateway(serveOn(database), 20_000, { PGPASSWORD: postgres.password })
    await gateway.stop()
    postgres.query(database, `INSERT INTO effect_sql_migrations (migration_id, name) VALUES (${future}, 'from_the_future')`)
    const newer = await runGateway(serveOn(database), 20_000, { PGPASSWORD: postgres.password })
    expect(newer.code).toBe(1)
    expect(newer.stderr).toBe(
      `gateway: cannot use the database ${postgres.url(database)}: ${postgres.url(database)} has schema version ${future}, but this gateway knows ` +
        `versions up to ${supportedVersion}: a newer gateway wrote it. Run that newer gateway, or give this one another database.\n`
    )
  })
})
