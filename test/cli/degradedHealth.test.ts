import BetterSqlite3 from "better-sqlite3"
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { Option, Redacted } from "effect"
import { hashToken, mintToken } from "../../src/auth/TokenSecret.ts"
import { migrations } from "../../src/store/Migrations.ts"
import { gatewayVersion } from "../../src/Version.ts"
import { eventuallyAsync } from "../support/eventually.ts"
import { freePort } from "../support/freePort.ts"
import { startGateway } from "../support/gatewayOverHttp.ts"
import { send } from "../support/httpRequest.ts"
import { gatewayBin, type Launcher, nodeBin, runGateway, spawnGateway } from "../support/spawnGateway.ts"

/**
 * `/health` says `degraded`, with the reason, while the gateway cannot do its work: an MQTT broker it
 * cannot reach, a database it cannot write (docs/configuration.md#probes).
 */

const health = async (baseUrl: string): Promise<unknown> => JSON.parse((await send(`${baseUrl}/health`)).body)

const reasonsOf = (body: unknown): unknown => (typeof body === "object" && body !== null && "reasons" in body ? body.reasons : [])

describe("an MQTT broker the gateway cannot reach", () => {
  // In this process: what is checked is the gateway's answer, not its process (whose flags serveMqtt.test.ts runs).
  it("degrades /health, with each connection, the broker and why", async () => {
    const port = await freePort()
    const gateway = await startGateway(
      {},
      { home: Option.none(), mqtt: Option.some(`mqtt://127.0.0.1:${port}`), mqttDiscovery: Option.some("homeassistant") },
      { captureLogs: true }
    )
    try {
      // Both connections have tried and been refused (before that, one says "(connecting)").
      const refused = (b: unknown) => JSON.stringify(reasonsOf(b)).split("ECONNREFUSED").length === 3
      const body = await eventuallyAsync(() => health(gateway.baseUrl), refused)
      const why = `connect ECONNREFUSED 127.0.0.1:${port}`
      expect(body).toEqual({
        status: "degraded",
        reasons: [
          `the Zigbee2MQTT connection to the MQTT broker at mqtt://127.0.0.1:${port} is not up: ${why}`,
          `the MQTT discovery connection to the MQTT broker at mqtt://127.0.0.1:${port} is not up: ${why}`
        ],
        home: null,
        last_reload_error: null,
        adapters: expect.arrayContaining(["simulator@gateway.local"]),
        version: gatewayVersion
      })
    } finally {
      await gateway.close()
    }
  })
})

describe("a database the gateway cannot write", () => {
  // Root writes whatever the file mode says, by its capabilities: the gateway runs as root without any
  // then, bound by file modes like any user, and still able to reach a checkout under /root (which
  // another user, such as nobody, could not enter).
  const asRoot = process.getuid?.() === 0
  const unprivileged: Launcher = asRoot ? ["setpriv", "--bounding-set=-all", "--inh-caps=-all", nodeBin, gatewayBin] : [nodeBin, gatewayBin]
  const base = mkdtempSync(join(tmpdir(), "gateway-read-only-"))
  const adminToken = mintToken()
  afterAll(() => rmSync(base, { recursive: true, force: true }))

  /** A folder holding a gateway.db of this schema (in WAL mode, with a user if `withUser`), made read-only. */
  const readOnlyFolder = (name: string, withUser: boolean) => {
    const dir = join(base, name)
    mkdirSync(dir)
    const file = join(dir, "gateway.db")
    const db = new BetterSqlite3(file)
    db.pragma("journal_mode = WAL")
    for (const step of migrations) db.exec(step.sql)
    db.pragma(`user_version = ${migrations.length}`)
    if (withUser) {
      db.prepare("INSERT INTO users (username, email, password_hash, created_at) VALUES ('admin', '', 'scrypt$x', 0)").run()
      db.prepare("INSERT INTO tokens (token_hash, user_id, kind, created_at) VALUES (?, 1, 'api', 0)").run(hashToken(adminToken))
    }
    db.close()
    chmodSync(file, 0o444)
    return { dir, file }
  }

  it("degrades /health, and the log says so at start", async () => {
    const { dir, file } = readOnlyFolder("with-a-user", true)
    const gateway = await spawnGateway(["serve", "--port", "0", "--no-clock", "--data", dir], 15_000, {}, unprivileged)
    try {
      expect(await health(gateway.baseUrl)).toEqual({
        status: "degraded",
        reasons: [`the database ${file} cannot be written: attempt to write a readonly database`],
        home: null,
        last_reload_error: null,
        adapters: ["simulator@gateway.local"],
        version: gatewayVersion
      })
      expect(gateway.stderr()).toContain(`${file} cannot be written (attempt to write a readonly database): the gateway serves, but changes nothing it stores`)
      // Reads still answer: a token's last use is not recorded, and that is no reason to refuse it.
      const services = await fetch(`${gateway.baseUrl}/api/v1/services`, { headers: { authorization: `Bearer ${Redacted.value(adminToken)}` } })
      expect(services.status).toBe(200)
    } finally {
      await gateway.stop()
    }
  })

  it("on a first run, where admin cannot be created, stops the start with one line on stderr", async () => {
    const { dir } = readOnlyFolder("without-a-user", false)
    const exited = await runGateway(["serve", "--port", "0", "--no-clock", "--data", dir], 15_000, {}, unprivileged)
    expect({ code: exited.code, stdout: exited.stdout }).toEqual({ code: 1, stdout: "" })
    expect(exited.stderr.split("\n").filter((line) => line.startsWith("gateway: "))).toEqual([
      expect.stringMatching(new RegExp(`^gateway: cannot use the data folder ${dir}: INSERT INTO users .* failed: attempt to write a readonly database$`))
    ])
  })
})
