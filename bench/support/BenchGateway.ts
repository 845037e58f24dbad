import { writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { join } from "node:path"
import { Console, Context, Effect, Layer, Option, Redacted, type Scope, type Stream } from "effect"
import { HttpServer } from "effect/http"
import { hashPassword } from "../../src/auth/Password.ts"
import { Tokens } from "../../src/auth/Tokens.ts"
import type { HomeChange } from "../../src/gateway/HomeChange.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { UserStore } from "../../src/auth/UserStore.ts"
import { defaultGatewayOptions, type GatewayOptions } from "../../src/GatewayOptions.ts"
import { serverOptions } from "../../src/http/transport/Server.ts"
import { gatewayLayer } from "../../src/main.ts"
import { tempDir } from "./TempDir.ts"

/** A whole gateway for a benchmark: on loopback at `url`, and reachable without a socket through `server`. */
export interface BenchGateway {
  readonly url: string
  readonly server: Server
  /** An API token of the gateway's admin: `Authorization: Bearer <token>`. */
  readonly token: string
  /**
   * A token of a new user with every right (a token, and all the tokens of one user, hold a bounded
   * number of watch sockets: many watchers need many tokens, of many users).
   */
  readonly createToken: Effect.Effect<string>
  /** The gateway's changes, as its watchers get them. */
  readonly changes: Stream.Stream<HomeChange>
}

/**
 * The process's console with `log` silenced: the gateway prints `listening on …` on stdout, which is
 * the benchmark's table's. Everything else (errors, warnings) still reaches stderr.
 */
const stdoutSilenced: Console.Console = { ...globalThis.console, log: () => {} }

/**
 * Starts a gateway on `home` (a simulated home file's content, or the demo home when `None`) in a
 * fresh data folder, for the scope. No first-run lines: the admin is made here, with a token, so that
 * the benchmark's output holds only its table.
 */
export const benchGateway = (
  home: Option.Option<unknown>,
  config: Partial<GatewayOptions> = {}
): Effect.Effect<BenchGateway, never, Scope.Scope> =>
  Effect.gen(function*() {
    const dataDir = yield* tempDir
    const homeFile = Option.map(home, (content) => {
      const file = join(dataDir, "home.json")
      writeFileSync(file, JSON.stringify(content))
      return file
    })
    const server = createServer(serverOptions)
    const context = yield* Layer.build(gatewayLayer(
      { ...defaultGatewayOptions, port: 0, clock: false, defaultAdmin: false, dataDir, home: homeFile, ...config },
      () => server
    )).pipe(Effect.provideService(Console.Console, stdoutSilenced), Effect.orDie)
    const passwordHash = yield* hashPassword(Redacted.make("bench"))
    let users = 0
    const tokenOfNewUser = (username: string) =>
      UserStore.use((store) => store.insert({ username, email: `${username}@example.org`, passwordHash, createdAt: Date.now() })).pipe(
        Effect.flatMap(Effect.fromOption),
        Effect.flatMap((user) => Tokens.use((tokens) => tokens.create({ user, kind: "api", label: "bench", scope: Option.none(), expiresAt: Option.none() }))),
        Effect.map((created) => Redacted.value(created.token)),
        Effect.provide(context),
        Effect.orDie
      )
    const createToken = Effect.suspend(() => tokenOfNewUser(`bench-${++users}`))
    const address = Context.get(context, HttpServer.HttpServer).address
    const url = address._tag === "UnixPathAddress" ? address.path : `http://127.0.0.1:${address.port}`
    return { url, server, token: yield* tokenOfNewUser("admin"), createToken, changes: Context.get(context, Registry).changes }
  })
