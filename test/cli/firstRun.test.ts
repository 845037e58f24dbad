import BetterSqlite3 from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readdirSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { send } from "../support/httpRequest.ts"
import { runGatewayInProcess } from "../support/gatewayCli.ts"
import { type RunningGateway, runGateway, spawnGateway } from "../support/spawnGateway.ts"

/**
 * First run, setup and the user and token commands, on the built CLI (docs/reference.md §8): a newcomer gets a
 * working token from the first start, and the operator manages users and tokens beside the running server.
 * Each `users` and `tokens` command that changes something runs once as a process of its own (`runGateway`:
 * its exit code and output): `users add`, `passwd` and `remove` here, `tokens create` with a scope and a label
 * in docs/auth.md's examples (test/docs/docs.test.ts), `tokens revoke` in endedTokensWhileWatching.test.ts,
 * `users list` and `tokens list` in test/support/gatewayCli.test.ts. The others, and the commands that only
 * set or read state, run in this process (`runGatewayInProcess`).
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` })
const line = (stdout: string, prefix: string) => new RegExp(`^${prefix}(\\S+)$`, "m").exec(stdout)?.[1] ?? ""

/** Every byte SQLite keeps in the folder: the database, its WAL and shared memory. */
const databaseBytes = (dataDir: string) =>
  readdirSync(dataDir).filter((name) => name.startsWith("gateway.db")).map((name) => readFileSync(join(dataDir, name)).toString("latin1")).join("")

/** The scrypt parameters of admin's stored password hash, `N$r$p`. */
const adminHashCost = (dataDir: string) => {
  const db = new BetterSqlite3(join(dataDir, "gateway.db"), { readonly: true })
  try {
    const row = db.prepare("SELECT password_hash FROM users WHERE username = 'admin'").get() as { password_hash: string } | undefined
    return row?.password_hash.split("$").slice(1, 4).join("$")
  } finally {
    db.close()
  }
}

describe("the first run", () => {
  const dataDir = freshDataDir()
  let gateway: RunningGateway | undefined
  const running = () => {
    if (gateway === undefined) throw new Error("the gateway did not start")
    return gateway
  }
  // With --cors-origin, whose test (below) needs a gateway and changes nothing the others ask.
  const corsOrigins = ["--cors-origin", "https://a.example", "--cors-origin", "https://b.example"]
  beforeAll(async () => {
    gateway = await spawnGateway(["serve", "--port", "0", "--no-clock", "--data", dataDir, ...corsOrigins])
  })
  afterAll(() => gateway?.stop("SIGTERM"))

  it("prints the admin password, the admin token and a ready curl request once, and the token works", async () => {
    const { baseUrl, token } = running()
    const stdout = running().stdout()
    expect(line(stdout, "admin password: ")).toMatch(/^\S{16,}$/)
    expect(token).toMatch(/^gw_[A-Za-z0-9_-]{43}$/)
    await expect.poll(() => running().stdout()).toContain(`curl -H "Authorization: Bearer ${token}" ${baseUrl}/api/v1/services`)
    expect((await send(`${baseUrl}/api/v1/services`, { headers: bearer(token ?? "") })).status).toBe(200)
  })

  it("lets admin log in with the printed password", async () => {
    const password = line(running().stdout(), "admin password: ")
    const login = await send(`${running().baseUrl}/users/login`, { method: "POST", headers: basic("admin", password) })
    expect(login.status).toBe(201)
    const { session_token } = JSON.parse(login.body) as { session_token: string }
    expect((await send(`${running().baseUrl}/api/v1/nodes`, { headers: bearer(session_token) })).status).toBe(200)
    // Only hashes are stored: neither the password nor a token is in any file of the database.
    const stored = databaseBytes(dataDir)
    for (const secret of [password, running().token ?? "", session_token]) expect(stored.includes(secret)).toBe(false)
    // Hashed at the test cost the suite's spawned gateways are given (spawnGateway.ts), which they check like any.
    expect(adminHashCost(dataDir)).toBe("1024$8$1")
  })

  it("answers setup 410: a user exists", async () => {
    const setup = await send(`${running().baseUrl}/users/setup`, {
      method: "POST",
      body: JSON.stringify({ username: "eve", email: "eve@example.org", password: "a long password" })
    })
    expect({ status: setup.status, body: JSON.parse(setup.body) }).toEqual({ status: 410, body: "setup is done: a user exists already" })
  })

  it("answers setup 410 without decoding its body once a user exists: not JSON, not a user, or deep and escaped", async () => {
    // 4,000 deep fits the open routes' 8 KiB and would be a 400 for its depth, were it decoded.
    const deep = (depth: number) => "[".repeat(depth) + "\"\\n\"" + "]".repeat(depth)
    for (const body of ["{", "[1, 2]", deep(4_000)]) {
      const setup = await send(`${running().baseUrl}/users/setup`, { method: "POST", body })
      expect({ status: setup.status, body: JSON.parse(setup.body) }).toEqual({ status: 410, body: "setup is done: a user exists already" })
    }
    // Over the route's limit, the transport's 413 comes first, as on every route.
    const tooLarge = await send(`${running().baseUrl}/users/setup`, { method: "POST", body: deep(400_000) })
    expect({ status: tooLarge.status, body: JSON.parse(tooLarge.body) }).toEqual({ status: 413, body: "body: larger than the limit of 8192 bytes" })
  })

  it("manages users and scoped tokens from the CLI while the server runs", async () => {
    const { baseUrl } = running()
    const added = await runGateway(["users", "add", "bob", "--email", "bob@example.org", "--data", dataDir])
    expect(added.code).toBe(0)
    const bobPassword = line(added.stdout, "password: ")
    expect((await send(`${baseUrl}/users/login`, { method: "POST", headers: basic("bob", bobPassword) })).status).toBe(201)
    expect((await runGatewayInProcess(["users", "list", "--data", dataDir])).stdout).toMatch(/^admin\t-\t.*\nbob\tbob@example\.org\t/m)

    const scope = JSON.stringify({ channels: { service: "service:hall-light@sim" }, rights: ["read"] })
    const created = await runGatewayInProcess(["tokens", "create", "--user", "bob", "--scope", scope, "--label", "hall", "--data", dataDir])
    expect(created.code).toBe(0)
    const token = created.stdout.trim()
    const getters = await send(`${baseUrl}/api/v1/channels/getters`, { headers: bearer(token) })
    expect((JSON.parse(getters.body) as ReadonlyArray<{ id: string }>).map((g) => g.id)).toEqual(["getter:hall-light-color@sim", "getter:hall-light-on@sim"])

    const listed = await runGatewayInProcess(["tokens", "list", "--data", dataDir])
    const row = listed.stdout.split("\n").find((l) => l.includes("\thall\t"))
    expect(row).toContain("\tbob\tapi\tactive\t")
    expect(row).toContain(JSON.stringify({ channels: [{ service: "service:hall-light@sim" }], rights: ["read"] }))
    expect(listed.stdout.includes(token)).toBe(false)
    // One user's tokens: bob's session and his token, none of the admin's.
    const bobs = await runGatewayInProcess(["tokens", "list", "--user", "bob", "--data", dataDir])
    expect(bobs.stdout.trim().split("\n").slice(1).map((l) => l.split("\t")[1])).toEqual(["bob", "bob"])
    const nobody = await runGatewayInProcess(["tokens", "list", "--user", "nobody", "--data", dataDir])
    expect([nobody.code, nobody.stderr]).toEqual([1, expect.stringContaining("nobody")])

    const id = row?.split("\t")[0] ?? ""
    expect((await runGatewayInProcess(["tokens", "revoke", id, "--data", dataDir])).code).toBe(0)
    expect((await send(`${baseUrl}/api/v1/channels/getters`, { headers: bearer(token) })).status).toBe(401)
  })

  it("changes a password (ending the sessions) and removes a user with its tokens", async () => {
    const { baseUrl } = running()
    const added = await runGatewayInProcess(["users", "add", "carol", "--data", dataDir])
    const login = (password: string) => send(`${baseUrl}/users/login`, { method: "POST", headers: basic("carol", password) })
    const session = (JSON.parse((await login(line(added.stdout, "password: "))).body) as { session_token: string }).session_token
    const apiToken = (await runGatewayInProcess(["tokens", "create", "--user", "carol", "--data", dataDir])).stdout.trim()

    const changed = await runGateway(["users", "passwd", "carol", "--data", dataDir])
    expect(changed.code).toBe(0)
    expect((await send(`${baseUrl}/api/v1/services`, { headers: bearer(session) })).status).toBe(401)
    expect((await send(`${baseUrl}/api/v1/services`, { headers: bearer(apiToken) })).status).toBe(200)
    expect((await login(line(changed.stdout, "password: "))).status).toBe(201)

    expect((await runGateway(["users", "remove", "carol", "--data", dataDir])).code).toBe(0)
    expect((await send(`${baseUrl}/api/v1/services`, { headers: bearer(apiToken) })).status).toBe(401)
    expect((await runGatewayInProcess(["users", "remove", "carol", "--data", dataDir])).code).toBe(1)
  })

  it("records a token's last use, at most once a minute, and tokens list shows it", async () => {
    const { baseUrl } = running()
    const token = (await runGatewayInProcess(["tokens", "create", "--label", "last-use", "--data", dataDir])).stdout.trim()
    const lastUsed = async () => {
      const row = (await runGatewayInProcess(["tokens", "list", "--data", dataDir])).stdout.split("\n").find((l) => l.includes("\tlast-use\t"))
      return row?.split("\t")[5]
    }
    expect(await lastUsed()).toBe("-")
    const before = Date.now()
    expect((await send(`${baseUrl}/api/v1/services`, { headers: bearer(token) })).status).toBe(200)
    const after = Date.now()
    const first = await lastUsed()
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(Date.parse(first ?? "")).toBeGreaterThanOrEqual(before)
    expect(Date.parse(first ?? "")).toBeLessThanOrEqual(after)
    // Used again within the minute: not written again.
    expect((await send(`${baseUrl}/api/v1/services`, { headers: bearer(token) })).status).toBe(200)
    expect(await lastUsed()).toBe(first)
  })

  it("--cors-origin opens CORS to each origin given, and to no other", async () => {
    const preflight = (origin: string) =>
      send(`${running().baseUrl}/api/v1/services`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "PUT" } })
    for (const origin of ["https://a.example", "https://b.example"]) {
      const reply = await preflight(origin)
      expect({ status: reply.status, allowed: reply.headers["access-control-allow-origin"] }).toEqual({ status: 204, allowed: origin })
    }
    expect((await preflight("https://c.example")).status).toBe(405)
  })

  // In this process: a refusal with exit code 1 and one line runs as a process in test/support/gatewayCli.test.ts.
  it("refuses a malformed scope with one line and exit code 1", async () => {
    const refused = await runGatewayInProcess(["tokens", "create", "--scope", "{\"channels\": {}, \"rights\": [\"fly\"]}", "--data", dataDir])
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 1, stdout: "" })
    expect(refused.stderr).toContain("--scope: scope.rights[0]: expected one of \"read\", \"write\", \"watch\", \"tag\", \"metrics\", \"tokens\", got \"fly\"")
  })

  // Last: it stops the first run's gateway and leaves the later run's to afterAll.
  it("a later run prints no password, and the first run's token still works", async () => {
    const first = running()
    await first.stop("SIGTERM")
    gateway = undefined
    const again = await spawnGateway(["serve", "--port", "0", "--no-clock", "--data", dataDir])
    gateway = again
    expect(again.stdout()).not.toContain("admin password")
    expect(again.token).toBeUndefined()
    expect((await send(`${again.baseUrl}/api/v1/services`, { headers: bearer(first.token ?? "") })).status).toBe(200)
  })
})

describe("a first start that cannot listen", () => {
  it("creates no admin: the next start prints the password and token, and they work, for the days --session-days sets", async () => {
    const dataDir = freshDataDir()
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve))
    const address = taken.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    try {
      const refused = await runGateway(["serve", "--port", String(port), "--no-clock", "--data", dataDir])
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 1, stdout: "" })
      expect(refused.stderr.split("\n").filter((l) => l.startsWith("gateway: "))).toEqual([
        `gateway: cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`
      ])
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
    const before = Date.now()
    // This first run hashes at the gateway's own cost, the variable the suite's spawned gateways get set empty.
    const gateway = await spawnGateway(["serve", "--port", "0", "--no-clock", "--session-days", "2", "--data", dataDir], 15_000, { GATEWAY_TEST_PASSWORD_COST: "" })
    try {
      expect(adminHashCost(dataDir)).toBe("32768$8$1")
      const password = line(gateway.stdout(), "admin password: ")
      expect((await send(`${gateway.baseUrl}/api/v1/services`, { headers: bearer(gateway.token ?? "") })).status).toBe(200)
      expect((await send(`${gateway.baseUrl}/users/login`, { method: "POST", headers: basic("admin", password) })).status).toBe(201)
      // --session-days: the first-run token (an API token of admin that lasts as long as a session) and the login's session.
      const rows = (await runGatewayInProcess(["tokens", "list", "--data", dataDir])).stdout.trim().split("\n").slice(1)
      expect(rows.map((row) => row.split("\t").slice(1, 4))).toEqual([["admin", "api", "active"], ["admin", "session", "active"]])
      for (const row of rows) {
        const expires = Date.parse(row.split("\t")[4] ?? "")
        const twoDays = 2 * 24 * 3_600_000
        expect({ row, early: expires < before + twoDays - 60_000, late: expires > Date.now() + twoDays }).toEqual({ row, early: false, late: false })
      }
    } finally {
      await gateway.stop("SIGTERM")
    }
  })
})

describe("--session-days", () => {
  it("refuses a number of days out of range with one line", async () => {
    const exited = await runGatewayInProcess(["serve", "--port", "0", "--no-clock", "--session-days", "0", "--data", freshDataDir()])
    expect(exited.code).toBe(2)
    expect(exited.stderr).toContain(`Invalid value for flag --session-days: "0". Expected: an integer from 1 to 3650`)
  })
})

describe("--no-default-admin", () => {
  it("creates nobody; GET /users/setup says setup is needed until POST /users/setup creates the first user once, then answers 410", async () => {
    const gateway = await spawnGateway(["serve", "--port", "0", "--no-clock", "--no-default-admin", "--data", freshDataDir()])
    try {
      expect(gateway.token).toBeUndefined()
      const needed = async () => JSON.parse((await send(`${gateway.baseUrl}/users/setup`)).body) as unknown
      expect(await needed()).toEqual({ needed: true })
      const setup = (body: unknown) => send(`${gateway.baseUrl}/users/setup`, { method: "POST", body: JSON.stringify(body) })
      expect((await setup({ username: "me", email: "me@example.org", password: "short" })).status).toBe(400)
      const created = await setup({ username: "me", email: "me@example.org", password: "a long enough password" })
      expect(created.status).toBe(201)
      const { session_token } = JSON.parse(created.body) as { session_token: string }
      expect((await send(`${gateway.baseUrl}/api/v1/services`, { headers: bearer(session_token) })).status).toBe(200)
      expect((await setup({ username: "me2", email: "", password: "a long enough password" })).status).toBe(410)
      expect(await needed()).toEqual({ needed: false })
    } finally {
      await gateway.stop("SIGTERM")
    }
  })
})
