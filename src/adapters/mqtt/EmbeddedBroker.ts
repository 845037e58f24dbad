import { randomBytes, timingSafeEqual } from "node:crypto"
import { createServer, type Server, Socket } from "node:net"
import type { AuthErrorCode, AuthenticateError, Client } from "aedes"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { BrokerCredentials } from "../../auth/BrokerCredentials.ts"
import { unknownAddress } from "../../auth/LoginThrottle.ts"

export class BrokerStartFailed extends Data.TaggedError("BrokerStartFailed")<{ readonly host: string; readonly port: number; readonly cause: unknown }> {
  override get message(): string {
    return `cannot start the MQTT broker on ${this.host}:${this.port}: ${this.cause instanceof Error ? this.cause.message : String(this.cause)}`
  }
}

export interface EmbeddedBrokerShape {
  /** `mqtt://HOST:PORT` where the broker listens (the port it got, when asked for port 0). */
  readonly url: string
  readonly port: number
  /** A login the broker accepts from the gateway itself (its own Zigbee2MQTT adapter), made anew each run. */
  readonly internalUsername: string
  readonly internalPassword: Redacted.Redacted<string>
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** MQTT's CONNACK code 4, "bad user name or password" (aedes' AuthErrorCode is a const enum, not importable). */
const badUsernameOrPassword = 4 as AuthErrorCode

const refused = (): AuthenticateError =>
  Object.assign(new Error("bad username or password"), { returnCode: badUsernameOrPassword })

/** The client's IP address (the broker serves TCP connections, whose sockets know it). */
const addressOf = (client: Client): string =>
  (client.conn instanceof Socket ? client.conn.remoteAddress : undefined) ?? unknownAddress

/**
 * An MQTT broker inside the gateway (`--mqtt-broker`), so that a bridge such as Zigbee2MQTT can
 * connect straight to it. Every client must log in as one of the gateway's users (BrokerCredentials);
 * each refusal is logged with the client's address, so that a bridge with a stale password is found.
 */
export class EmbeddedBroker extends Context.Service<EmbeddedBroker, EmbeddedBrokerShape>()("app/EmbeddedBroker") {
  static readonly layer = (host: string, port: number) =>
    Layer.effect(
      EmbeddedBroker,
      Effect.gen(function*() {
        const credentials = yield* BrokerCredentials
        const internalUsername = `gateway-${randomBytes(6).toString("hex")}`
        const internalPassword = randomBytes(24).toString("base64url")
        // Checks run with the layer's services (its logger among them) and end with it.
        const runFork = yield* FiberSet.makeRuntime()
        const broker = yield* Effect.acquireRelease(
          // Loaded only when a broker is asked for: most starts need none, and aedes costs ~60 ms and ~10 MiB.
          Effect.promise(async () => (await import("aedes")).Aedes.createBroker({
            authenticate: (client, username, password, done) => {
              const user = username ?? ""
              const secret = password?.toString("utf8") ?? ""
              if (sameText(user, internalUsername) && sameText(secret, internalPassword)) return done(null, true)
              const address = addressOf(client)
              runFork(Effect.gen(function*() {
                const admitted = yield* credentials.check(user, secret, address).pipe(Effect.catchCause(() => Effect.succeed(false)))
                if (admitted) return done(null, true)
                yield* Effect.logWarning(`MQTT login refused for ${JSON.stringify(user)} from ${address}`)
                done(refused(), false)
              }))
            }
          })),
          (broker) => Effect.callback<void>((resume) => (broker.closed ? resume(Effect.void) : void broker.close(() => resume(Effect.void))))
        )
        const server = yield* Effect.acquireRelease(
          Effect.callback<Server, BrokerStartFailed>((resume) => {
            const server = createServer(broker.handle)
            server.once("error", (cause) => resume(Effect.fail(new BrokerStartFailed({ host, port, cause }))))
            server.listen(port, host, () => resume(Effect.succeed(server)))
          }),
          // The broker ends its clients' connections first: a server closes only once they are gone.
          (server) =>
            Effect.callback<void>((resume) => void broker.close(() => server.close(() => resume(Effect.void))))
        )
        const address = server.address()
        const bound = typeof address === "object" && address !== null ? address.port : port
        const shownHost = host.includes(":") ? `[${host}]` : host
        yield* Effect.logInfo(`MQTT broker listening on mqtt://${shownHost}:${bound}`)
        return { url: `mqtt://${shownHost}:${bound}`, port: bound, internalUsername, internalPassword: Redacted.make(internalPassword) }
      })
    )
}
