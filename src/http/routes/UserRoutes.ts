import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { users as userEndpoints } from "../../api/Users.ts"
import { CurrentCaller } from "../../auth/CurrentCaller.ts"
import { LiveSockets } from "../../auth/LiveSockets.ts"
import { LoginThrottle, unknownAddress } from "../../auth/LoginThrottle.ts"
import { Tokens } from "../../auth/Tokens.ts"
import { Users } from "../../auth/Users.ts"
import { basicCredentials } from "../routing/Authentication.ts"
import { bindGroup, type Request } from "../routing/Handlers.ts"
import { BadRequest, Gone, TooManyRequests, Unauthorized } from "../routing/HttpError.ts"
import { IncomingRequest } from "../routing/IncomingRequest.ts"
import { BodiesReadFirst } from "../transport/BodyFirst.ts"

/** `/users/setup` (GET and POST), `/users/login`, `/users/logout` (docs/reference.md §6.7, §8), at the root, not under `/api/v1`. */

/** What setup and login answer (201, src/api/Users.ts). */
const sessionCreated = (token: Redacted.Redacted<string>) => ({ session_token: Redacted.value(token) })

const setupDone = () => new Gone({ message: "setup is done: a user exists already" })

/**
 * Once a user exists, setup is refused before its body is decoded: an open route then costs a count,
 * not a JSON reading nor scrypt work, whatever it is sent. A body over the route's limit is still
 * answered 413, as on every route: that rule is the transport's, decided before any route runs.
 */
const refusedOnceSetUp = Effect.gen(function*() {
  const request = yield* IncomingRequest
  if ((yield* BodiesReadFirst).of(request.source)?._tag === "TooLarge") return
  const count = yield* Users.use((users) => Effect.orDie(users.count))
  if (count > 0) return yield* setupDone()
})

/** Creates the first user, once: a gateway started with `--no-default-admin` is claimed this way. */
const setup = ({ body: user }: Request<typeof userEndpoints.setup>) => Effect.gen(function*() {
  const created = yield* Users.use((users) => users.addFirst(user)).pipe(
    Effect.catchTag("InvalidUserInput", (e) => Effect.fail(new BadRequest({ message: `body.${e.message}` }))),
    Effect.catchTag("StoreError", Effect.die)
  )
  // Another setup may have created the first user since the check.
  if (Option.isNone(created)) return yield* setupDone()
  const token = yield* Tokens.use((t) => Effect.orDie(t.createSession(created.value)))
  yield* Effect.logInfo(`setup: created user ${created.value.username}`)
  return sessionCreated(token)
})

/** Whether the gateway waits for its first user: what a page shows first, setup or login. */
const setupStatus = Users.use((users) => Effect.map(Effect.orDie(users.count), (count) => ({ needed: count === 0 })))

/** Basic credentials in, a session token out; attempts are counted per user, per address and per pair of both (LoginThrottle). */
const login = Effect.gen(function*() {
  const request = yield* IncomingRequest
  const credentials = basicCredentials(request.headers["authorization"])
  if (Option.isNone(credentials)) {
    return yield* new Unauthorized({ message: "Authorization: expected \"Basic <base64 of user:password>\"" })
  }
  const { username, password } = credentials.value
  const address = request.remoteAddress ?? unknownAddress
  // Counted before the password is checked: attempts in flight hold their places in the budget.
  const verify = Users.use((u) => Effect.orDie(u.verify(username, password)))
  const user = yield* LoginThrottle.use((throttle) => throttle.attempt(username, address, verify)).pipe(
    Effect.catchTags({
      LoginLocked: (locked) => Effect.fail(new TooManyRequests({ message: locked.message, retryAfterSeconds: locked.retryAfterSeconds })),
      StoreError: Effect.die
    })
  )
  if (Option.isNone(user)) {
    yield* Effect.logWarning(`login refused for ${JSON.stringify(username)} from ${address}`)
    return yield* new Unauthorized({ message: "wrong username or password" })
  }
  const token = yield* Tokens.use((t) => Effect.orDie(t.createSession(user.value)))
  return sessionCreated(token)
})

/**
 * Revokes the token presented (and a session's comparison token: Tokens.signOut): the session (or API
 * token) ends, and its watch sockets with it, at once. Its access: that token.
 */
const logout = Effect.gen(function*() {
  const caller = yield* CurrentCaller
  const ended = yield* Tokens.use((tokens) => Effect.orDie(Effect.catchTag(tokens.signOut(caller.tokenId), "NoSuchToken", () => Effect.succeed([]))))
  yield* LiveSockets.use((sockets) => Effect.forEach(ended, (id) => sockets.end(id), { discard: true }))
})

export const userRoutes = bindGroup(userEndpoints, { setup_status: () => setupStatus, setup, login: () => login, logout: () => logout })
  .map((route): typeof route => route.endpoint === userEndpoints.setup ? { ...route, handler: (context) => Effect.flatMap(refusedOnceSetUp, () => route.handler(context)) } : route)
