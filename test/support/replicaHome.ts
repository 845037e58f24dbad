import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomBytes } from "node:crypto"
import { Effect, Layer, Option, Redacted } from "effect"
import { hashPassword } from "../../src/auth/Password.ts"
import { hashToken } from "../../src/auth/TokenSecret.ts"
import { TokenStore } from "../../src/auth/TokenStore.ts"
import { UserStore } from "../../src/auth/UserStore.ts"
import { HealthConditions } from "../../src/gateway/HealthConditions.ts"
import * as PgStore from "../../src/store/PgStore.ts"
import { type BridgePlayer, startBridgePlayer } from "./bridgePlayer.ts"
import { type HAProxy, startHAProxy, type Substitution } from "./haproxy.ts"
import { type Mosquitto, startMosquitto } from "./mosquitto.ts"
import { type Postgres, startPostgres } from "./postgres.ts"
import { type RunningGateway, spawnGateway } from "./spawnGateway.ts"

/**
 * One home served by several gateways, as docs/replicas.md sets it up, all on loopback: PostgreSQL,
 * mosquitto, the bridge player on it, `replicas` gateways on one database and that broker (each
 * `gateway serve --database-url … --mqtt …` on a free port, trusting HAProxy's address), and HAProxy on
 * the documented file. Every process is stopped by pid (`stop`).
 */

/** Where docs/replicas.md's HAProxy file puts things: its frontend, and its servers in order. */
export interface DocumentedAddresses {
  readonly frontend: string
  readonly servers: readonly [string, ...ReadonlyArray<string>]
}

export interface ReplicaHome {
  readonly postgres: Postgres
  readonly database: string
  readonly mosquitto: Mosquitto
  readonly player: BridgePlayer
  /** The replicas, in the order of the documented servers they stand for. */
  readonly replicas: ReadonlyArray<RunningGateway>
  readonly haproxy: HAProxy
  /** The first run's admin token and password (one replica made the admin). */
  readonly adminToken: string
  readonly adminPassword: string
  /**
   * `count` unscoped API tokens of `username` (a user made first, with a password nobody knows, if there is
   * none), inserted through the store as `gateway tokens create` would: in a moment, where a request each
   * would be throttled. Answers each token's id and secret.
   */
  readonly insertTokens: (username: string, count: number) => Promise<ReadonlyArray<{ readonly id: number; readonly secret: string }>>
  /** Stops everything it started, HAProxy first, and waits for each to exit. */
  readonly stop: () => Promise<void>
}

/** The user `username`, made if there is none. */
const userNamed = (username: string) =>
  Effect.gen(function*() {
    const users = yield* UserStore
    const found = yield* users.byName(username)
    if (Option.isSome(found)) return found.value
    const passwordHash = yield* hashPassword(Redacted.make(randomBytes(16).toString("hex")))
    const made = yield* users.insert({ username, email: "", passwordHash, createdAt: Date.now() })
    return yield* Effect.fromOption(made)
  })

const tokensOf = (username: string, count: number) =>
  Effect.gen(function*() {
    const user = yield* userNamed(username)
    const tokens = yield* TokenStore
    return yield* Effect.forEach(Array.from({ length: count }, (_, index) => index), (index) => {
      const secret = `gw_${randomBytes(32).toString("base64url")}`
      const token = {
        tokenHash: hashToken(Redacted.make(secret)),
        userId: user.id,
        kind: "api" as const,
        label: `inserted ${index}`,
        scope: null,
        createdAt: Date.now(),
        expiresAt: null,
        createdBy: null
      }
      return Effect.map(tokens.insert(token), (id) => ({ id, secret }))
    }, { concurrency: 8 })
  })

const folder = (name: string) => mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), name))

/**
 * The home, with `replicas` gateways standing for the documented servers: gateway `i` for server `i`;
 * with fewer gateways than servers, the last gateway stands for the servers left too.
 */
export const startReplicaHome = async (replicas: number, addresses: DocumentedAddresses): Promise<ReplicaHome> => {
  const stops: Array<() => Promise<unknown>> = []
  const stop = async () => {
    for (const step of stops.reverse()) await step()
  }
  try {
    const [postgres, mosquitto] = await Promise.all([startPostgres(), startMosquitto()])
    stops.push(() => postgres.stop(), () => mosquitto.stop())
    const database = await postgres.createDatabase()
    const player = await startBridgePlayer(mosquitto.url)
    stops.push(() => player.close())
    const serve = [
      "serve", "--database-url", postgres.url(database), "--mqtt", mosquitto.url, "--host", "127.0.0.1", "--port", "0",
      "--no-dashboard", "--no-clock", "--trust-proxy", "127.0.0.1"
    ]
    const started = await Promise.allSettled(
      Array.from({ length: replicas }, () => spawnGateway([...serve, "--data", folder("replica-")], 30_000, { PGPASSWORD: postgres.password }))
    )
    const gateways = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []))
    stops.push(() => Promise.all(gateways.map((gateway) => gateway.stop("SIGTERM"))))
    const refused = started.find((result) => result.status === "rejected")
    if (refused !== undefined) throw refused.reason
    const admin = gateways.find((gateway) => gateway.token !== undefined)
    const adminPassword = /^admin password: (\S+)$/m.exec(admin?.stdout() ?? "")?.[1]
    if (admin?.token === undefined || adminPassword === undefined) throw new Error("no replica printed the first run's admin")
    const substitutions: ReadonlyArray<Substitution> = addresses.servers.map((server, index) => ({
      from: server,
      to: (gateways[Math.min(index, gateways.length - 1)]?.baseUrl ?? "").replace(/^http:\/\//, "")
    }))
    const haproxy = await startHAProxy(addresses.frontend, substitutions)
    stops.push(() => haproxy.stop())
    const stores = PgStore.layer({ url: postgres.url(database), password: Option.some(Redacted.make(postgres.password)) }).pipe(
      Layer.provide(HealthConditions.layer)
    )
    // On the stores of the home's database, as a replica would (a pool of its own, closed after).
    const insertTokens = (username: string, count: number) => Effect.runPromise(Effect.provide(tokensOf(username, count), Layer.fresh(stores)))
    return { postgres, database, mosquitto, player, replicas: gateways, haproxy, adminToken: admin.token, adminPassword, insertTokens, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
