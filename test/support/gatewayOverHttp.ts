import { writeFileSync } from "node:fs"
import { Agent } from "node:http"
import { join } from "node:path"
import { Effect, Layer, Logger, ManagedRuntime, Metric, Option, Redacted } from "effect"
import { HttpServer } from "effect/http"
import { hashPassword, PasswordCost } from "../../src/auth/Password.ts"
// scrypt is slow on purpose: these gateways hash and check at the test cost (the same scrypt, 1/32 of
// the work), so that the login throttle's tests of tens of wrong passwords do not spend their time hashing.
import { testPasswordCost } from "../../src/cli/PasswordCostSetting.ts"
import { Tokens } from "../../src/auth/Tokens.ts"
import { UserStore } from "../../src/auth/UserStore.ts"
import { Simulator } from "../../src/adapters/simulator/Simulator.ts"
import { ChannelId } from "../../src/domain/Identifier.ts"
import type { TokenScope } from "../../src/domain/Access.ts"
import type { User } from "../../src/domain/User.ts"
import type { Value } from "../../src/domain/Value.ts"
import { defaultGatewayOptions, type GatewayOptions } from "../../src/GatewayOptions.ts"
import type { Dispatch } from "../../src/gateway/Dispatch.ts"
import type { Tags } from "../../src/gateway/Tags.ts"
import type { Registry } from "../../src/gateway/Registry.ts"
import { Watch } from "../../src/gateway/Watch.ts"
import { gatewayLayer } from "../../src/main.ts"
import { migratedDataDir } from "./gatewayTestLayer.ts"
import { send } from "./httpRequest.ts"
import { afterAll, beforeAll } from "vitest"

/** A whole gateway running in this process on a real loopback socket, on the home given. */
export interface GatewayOverHttp {
  readonly baseUrl: string
  /** The home file the simulator watches: rewrite it to change the home. */
  readonly homeFile: string
  /** The database folder. */
  readonly dataDir: string
  /** The user `admin` (password `adminPassword`) and an unscoped token of it, which `call` sends. */
  readonly token: string
  /** The id of `token`. */
  readonly tokenId: number
  readonly adminPassword: string
  /**
   * One request as `admin` (`Authorization: Bearer <token>`, unless `headers` sets `authorization`);
   * `body` is sent as JSON (a string is sent as it is). Answers status and parsed JSON.
   */
  readonly call: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Readonly<Record<string, string>>
  ) => Promise<{ status: number; json: unknown; headers: Record<string, unknown> }>
  /** A new API token of `admin` (or of `user`, created if need be), scoped if `scope` is given, expiring at `expiresAt` if given. */
  readonly createToken: (
    options?: { readonly scope?: TokenScope; readonly expiresAt?: number; readonly user?: string }
  ) => Promise<{ id: number; token: string }>
  /** The last value written to a simulated setter, by either vocabulary (`None`: no write yet). */
  readonly lastSent: (setter: string) => Promise<Option.Option<Value>>
  /** Who made the last write to a simulated setter (`None`: nobody, or vocabulary A). */
  readonly lastWriter: (setter: string) => Promise<Option.Option<User>>
  /** Revokes a token by id, alone (not the tokens it created), as signing out does. */
  readonly revokeToken: (id: number) => Promise<void>
  /** How many watches the gateway holds (each with its queue): a closed socket must release its own. */
  readonly liveWatches: () => Promise<number>
  /**
   * How many fibers of the gateway are running now (request handlers, watch sockets, background
   * work), counted through Effect's fiber runtime metrics: compare two readings, not a reading with
   * a number.
   */
  readonly liveFibers: () => number
  /** Runs an effect on the gateway's own services, in process (what its routes call, unscoped). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Registry | Dispatch | Tags>) => Promise<A>
  /** The gateway's log lines (`LEVEL message`), if started with `captureLogs`: they are then not printed. */
  readonly logs: () => ReadonlyArray<string>
  readonly close: () => Promise<void>
}

export interface StartOptions {
  /** Keep the gateway's log lines for `logs()` instead of printing them (a test that expects some). */
  readonly captureLogs?: boolean
  /** When `token` expires (ms since the epoch); by default never. */
  readonly tokenExpiresAt?: number
}

export const testAdminPassword = "test admin password"

/** The test password's hash, made once per worker. */
let adminHash: Promise<string> | undefined
const adminPasswordHash = () => (adminHash ??= Effect.runPromise(hashPassword(Redacted.make(testAdminPassword), testPasswordCost)))

/** Counts the fibers started and not yet ended in the context it is provided to. */
const fiberCount = () => {
  let running = 0
  const layer = Layer.succeed(Metric.FiberRuntimeMetrics)({
    recordFiberStart: () => {
      running++
    },
    recordFiberEnd: () => {
      running--
    }
  })
  return { layer, running: () => running }
}

/**
 * Starts a gateway on `home`, written to `home.json` in its data folder: a fresh folder, or `config.dataDir`
 * (with `config.port`, a gateway started again where another one was, its users and tokens kept).
 */
export const startGateway = async (
  home: unknown,
  config: Partial<GatewayOptions> = {},
  options: StartOptions = {}
): Promise<GatewayOverHttp> => {
  // A gateway of its own folder finds its database migrated; one given a folder migrates it, if need be.
  const dataDir = config.dataDir ?? migratedDataDir()
  const homeFile = join(dataDir, "home.json")
  writeFileSync(homeFile, JSON.stringify(home, null, 2))
  const fibers = fiberCount()
  const logLines: Array<string> = []
  const logs = options.captureLogs === true
    ? Logger.layer([Logger.make(({ logLevel, message }) => logLines.push(`${logLevel.toUpperCase()} ${[message].flat().join(" ")}`))])
    : Layer.empty
  const runtime = ManagedRuntime.make(
    gatewayLayer({
      ...defaultGatewayOptions,
      port: 0,
      clock: false,
      defaultAdmin: false,
      dataDir,
      home: Option.some(homeFile),
      ...config
    }).pipe(Layer.provide(Layer.mergeAll(fibers.layer, logs, Layer.succeed(PasswordCost)(testPasswordCost))))
  )
  const address = await runtime.runPromise(HttpServer.HttpServer.useSync((server) => server.address))
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  const baseUrl = `http://127.0.0.1:${address.port}`
  const passwordHash = await adminPasswordHash()
  /** The user so named, created (with the test password) if there is none. */
  const userNamed = (username: string) =>
    runtime.runPromise(
      UserStore.use((users) =>
        Effect.flatMap(users.byName(username), (found) =>
          Option.isSome(found)
            ? Effect.succeed(found.value)
            : Effect.flatMap(
              users.insert({ username, email: `${username}@example.org`, passwordHash, createdAt: Date.now() }),
              (inserted) => Effect.fromOption(inserted)
            ))
      )
    )
  await userNamed("admin")
  const createToken: GatewayOverHttp["createToken"] = async (options = {}) => {
    const user = await userNamed(options.user ?? "admin")
    const created = await runtime.runPromise(Tokens.use((tokens) =>
      tokens.create({
        user,
        kind: "api",
        label: "test",
        scope: Option.fromUndefinedOr(options.scope),
        expiresAt: Option.fromUndefinedOr(options.expiresAt)
      })
    ))
    return { id: created.id, token: Redacted.value(created.token) }
  }
  // `call`'s connections are kept alive: a connection opened and closed per request was two thirds of
  // a request's CPU here (client and server in this process). Idle ones close after 2 s, before the
  // server's keep-alive time-out (5 s) could close one under a request.
  const agent = new Agent({ keepAlive: true, timeout: 2_000 })
  const { id: tokenId, token } = await createToken(options.tokenExpiresAt === undefined ? {} : { expiresAt: options.tokenExpiresAt })
  return {
    baseUrl,
    homeFile,
    dataDir,
    token,
    tokenId,
    adminPassword: testAdminPassword,
    call: async (method, path, body, headers = {}) => {
      const reply = await send(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...headers },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
        timeoutMs: 15_000,
        agent
      })
      return { status: reply.status, json: reply.body === "" ? undefined : JSON.parse(reply.body), headers: reply.headers }
    },
    createToken,
    lastSent: (setter) => runtime.runPromise(Simulator.use((s) => s.lastSent(ChannelId.make(setter)))),
    lastWriter: (setter) => runtime.runPromise(Simulator.use((s) => s.lastWriter(ChannelId.make(setter)))),
    revokeToken: (id) => runtime.runPromise(Tokens.use((tokens) => Effect.orDie(tokens.revoke(id)))),
    liveWatches: () => runtime.runPromise(Effect.flatMap(Watch, (watch) => watch.live)),
    liveFibers: fibers.running,
    run: (effect) => runtime.runPromise(effect),
    logs: () => logLines,
    close: () => {
      agent.destroy()
      return runtime.dispose()
    }
  }
}

/**
 * A gateway for the tests of one `describe`: started before the first, closed after the last. The
 * function answers it while they run.
 */
export const gatewayForSuite = (home: unknown, config: Partial<GatewayOptions> = {}, options: StartOptions = {}): (() => GatewayOverHttp) => {
  let running: GatewayOverHttp | undefined
  beforeAll(async () => {
    running = await startGateway(home, config, options)
  })
  afterAll(() => running?.close())
  return () => {
    if (running === undefined) throw new Error("the suite's gateway is not running")
    return running
  }
}

/** A request's status and JSON answer, for comparing whole. */
export interface StatusAndJson {
  readonly status: number
  readonly json: unknown
}

/** One request to `gateway` made with `token`: its status and JSON answer. */
export const callAs = async (gateway: GatewayOverHttp, token: string, method: string, path: string, body?: unknown): Promise<StatusAndJson> => {
  const { status, json } = await gateway.call(method, path, body, { authorization: `Bearer ${token}` })
  return { status, json }
}
