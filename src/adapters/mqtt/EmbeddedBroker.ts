import { randomBytes, timingSafeEqual } from "node:crypto"
import { createServer, type Server } from "node:net"
import { Aedes, type AuthErrorCode, type AuthenticateError } from "aedes"
import { Context, Data, Effect, Layer, Redacted } from "effect"
import { BrokerCredentials } from "../../auth/BrokerCredentials.ts"

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

/**
 * An MQTT broker inside the gateway (`--mqtt-broker`), so that a bridge such as Zigbee2MQTT can
 * connect straight to it. Every client must log in as one of the gateway's users (BrokerCredentials).
 */
export class EmbeddedBroker extends Context.Service<EmbeddedBroker, EmbeddedBrokerShape>()("app/EmbeddedBroker") {
  static readonly layer = (host: string, port: number) =>
    Layer.effect(
      EmbeddedBroker,
      Effect.gen(function*() {
        const credentials = yield* BrokerCredentials
        const internalUsername = `gateway-${randomBytes(6).toString("hex")}`
        const internalPassword = randomBytes(24).toString("base64url")
        const broker = yield* Effect.acquireRelease(
          Effect.promise(() => Aedes.createBroker({
            authenticate: (_client, username, password, done) => {
              const user = username ?? ""
              const secret = password?.toString("utf8") ?? ""
              if (sameText(user, internalUsername) && sameText(secret, internalPassword)) return done(null, true)
              Effect.runFork(credentials.check(user, secret).pipe(
                Effect.catchCause(() => Effect.succeed(false)),
                Effect.map((ok) => (ok ? done(null, true) : done(refused(), false)))
              ))
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
