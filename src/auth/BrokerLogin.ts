import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { BrokerCredentials } from "./BrokerCredentials.ts"
import { LoginThrottle } from "./LoginThrottle.ts"
import { Tokens } from "./Tokens.ts"
import { Users } from "./Users.ts"

/**
 * Who may connect to the embedded MQTT broker: a gateway user, with its password or with one of its
 * tokens that carries no scope, API or session (either carries the user's full rights). A client on
 * the broker can publish any device's state, so a token scoped to some channels is not enough. Logins
 * are counted with the HTTP logins, per user and client address alike (LoginThrottle).
 */
export const brokerLogin = Layer.effect(
  BrokerCredentials,
  Effect.gen(function*() {
    const users = yield* Users
    const tokens = yield* Tokens
    const throttle = yield* LoginThrottle
    const byPassword = (username: string, secret: string) =>
      Effect.map(users.verify(username, Redacted.make(secret)), Option.isSome)
    const byToken = (username: string, secret: string) =>
      Effect.map(
        tokens.authenticate(Redacted.make(secret)),
        Option.exists((caller) => caller.user.name === username && Option.isNone(caller.scope))
      )
    return BrokerCredentials.of({
      check: (username, password, address) =>
        throttle.attempt(username, address, Effect.gen(function*() {
          const accepted = (yield* byToken(username, password)) || (yield* byPassword(username, password))
          return accepted ? Option.some(username) : Option.none()
        })).pipe(Effect.map(Option.isSome), Effect.orElseSucceed(() => false))
    })
  })
)
