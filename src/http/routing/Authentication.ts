import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import { CurrentCaller } from "../../auth/CurrentCaller.ts"
import { Tokens } from "../../auth/Tokens.ts"
import { type Caller, grants, MissingRight, type Right } from "../../domain/Access.ts"
import { Forbidden, Unauthorized } from "./HttpError.ts"
import { IncomingRequest, type IncomingRequestShape } from "./IncomingRequest.ts"
import { type LoopbackAccess, letInFromLoopback } from "./LoopbackAccess.ts"
import * as Query from "./Query.ts"
import { givenService } from "./AtOnce.ts"
import { protocolToken } from "./WatchProtocols.ts"
import { RequestNotes } from "../observation/RequestNotes.ts"
import type { Route } from "./RouteTable.ts"

/**
 * Authentication as HTTP does it (docs/reference.md §8): a token in `Authorization: Bearer …`, or where a header
 * cannot be set (a browser's WebSocket) in the subprotocol `bearer.…`, or in `?auth=…`. Without a valid one the answer is 401 with
 * `WWW-Authenticate: Bearer`; with one, the handler finds the caller as `CurrentCaller`. Which routes need
 * one, and which right, their endpoints say (`guardByAccess`). What a token
 * stands for is auth's (Tokens), which knows no transport; reading it from a request and answering
 * without it is this module's. Login's credentials come in `Authorization: Basic` (`basicCredentials`).
 */

const bearer = /^Bearer[ \t]+([^\s]+)[ \t]*$/i

const malformedHeader = () => new Unauthorized({ message: "Authorization: expected \"Bearer <token>\"" })
const missingToken = () =>
  new Unauthorized({ message: "a token is required: send Authorization: Bearer <token>, or ?auth=<token>" })
export const refusedToken = () => new Unauthorized({ message: "the token is unknown, expired or revoked" })

/**
 * The last token presented, as its text and redacted: a client sends the same token request after
 * request, and each Redacted made costs an entry of Effect's registry of redacted values. It holds that
 * token, even one refused, until another is presented (docs/security.md).
 */
let lastPresented = { text: "", token: Redacted.make("") }

const presented = (text: string): Redacted.Redacted<string> => {
  if (lastPresented.text !== text) lastPresented = { text, token: Redacted.make(text) }
  return lastPresented.token
}

/** The last `Authorization` header read, and the token it presents: the same header is not matched again. */
let lastHeader: { readonly header: string; readonly token: Result.Result<Redacted.Redacted<string>, never> } | undefined

const bearerToken = (header: string): Result.Result<Redacted.Redacted<string>, Unauthorized> => {
  if (lastHeader?.header === header) return lastHeader.token
  const match = bearer.exec(header)
  if (match?.[1] === undefined) return Result.fail(malformedHeader())
  lastHeader = { header, token: Result.succeed(presented(match[1])) }
  return lastHeader.token
}

/**
 * The token a request presents: the header if there is one (a malformed header is refused, not skipped), else a
 * WebSocket's subprotocol `bearer.<token>` (a browser's), else `?auth=`.
 */
const tokenOf = ({ headers, query }: IncomingRequestShape): Result.Result<Redacted.Redacted<string>, Unauthorized> => {
  const header = headers["authorization"]
  if (header !== undefined) return bearerToken(header)
  const offered = protocolToken(headers["sec-websocket-protocol"])
  if (offered !== undefined) return Result.succeed(presented(offered))
  const auth = Query.first(query, "auth")
  return auth === undefined ? Result.fail(missingToken()) : Result.succeed(presented(auth))
}

/** The caller of the request in a context: made from it at once, and done when the token is (a 401 always is). */
type CallerOf<E> = (context: Context.Context<Tokens | IncomingRequest>) => Effect.Effect<Caller, Unauthorized | E>

/** The caller the request's token stands for, if `admitted` admits it (else its refusal), or a 401. */
const callerAdmitted = <E>(admitted: (caller: Caller) => Effect.Effect<Caller, E>): CallerOf<E> => {
  const known = (caller: Option.Option<Caller>): Effect.Effect<Caller, Unauthorized | E> =>
    Option.isNone(caller) ? Effect.fail(refusedToken()) : admitted(caller.value)
  return (context) => {
    const token = tokenOf(Context.get(context, IncomingRequest))
    if (Result.isFailure(token)) return Effect.fail(token.failure)
    // A store that fails is a defect (500), as `orDie` makes it; a token found at once stays done.
    return Effect.flatMapEager(Effect.catchEager(Context.get(context, Tokens).authenticate(token.success), Effect.die), known)
  }
}

/** The caller the request's token stands for, or a 401. */
const authenticate: CallerOf<never> = callerAdmitted((caller) => Effect.succeed(caller))

/** 403: the token does not grant `right` (the core's `MissingRight`, said before the route reads anything). */
const missingRight = (right: Right) => new Forbidden({ message: new MissingRight({ right }).message })

/** The caller, if its token grants `right`. */
const authorized = (right: Right) =>
  callerAdmitted((caller) => (grants(caller.scope, right) ? Effect.succeed(caller) : Effect.fail(missingRight(right))))

/**
 * `handler`'s program for `caller`: with it as `CurrentCaller`, once the observation is told the token it was let
 * in with (it counts vocabulary A's calls by token, only calls let in).
 */
const runFor = <R>(caller: Caller, handler: Route<R>["handler"], context: Context.Context<Guarded<R>>) => {
  Context.get(context, RequestNotes).madeWith(caller)
  // What the route needs is what it is guarded with, and its caller (Guarded<R>).
  const withCaller = Context.add(context, CurrentCaller, caller) as Context.Context<R>
  return givenService(handler(withCaller), CurrentCaller, caller)
}

/**
 * Every route wrapped as its endpoint's access says (src/api/Access.ts): an open one as it is, the others
 * so that their handler runs only for a caller whose token is valid (401) and grants the right the route
 * names (403), with `CurrentCaller` provided. The core checks the right again (ScopedCalls): this step makes
 * the route's description true before anything of the request is read, a WebSocket's upgrade included.
 */
export const guardByAccess = <R>(
  routes: ReadonlyArray<Route<R>>
): ReadonlyArray<Route<Guarded<R>>> =>
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every tag of Access, which the compiler checks
  routes.map((route): Route<Guarded<R>> => {
    const withCaller = (callerOf: CallerOf<Forbidden>): Route<Guarded<R>> => ({
      ...route,
      handler: (context) => Effect.flatMapEager(callerOf(context), (caller) => runFor(caller, route.handler, context))
    })
    // A route without a caller in its context: one whose handler asked for it would be a bug, caught by its tests.
    const callerless = route as Route<Guarded<R>>
    const { access } = route.endpoint
    switch (access._tag) {
      case "Open":
        return callerless
      case "Token":
        return withCaller(authenticate)
      case "Right":
        return withCaller(authorized(access.right))
      case "RightOrLoopback": {
        const guarded = withCaller(authorized(access.right))
        return { ...route, handler: (context) => (letInFromLoopback(context) ? callerless.handler(context) : guarded.handler(context)) }
      }
    }
  })

/** What the wrapped routes need: the same, less the caller they are given, plus the token lookup. */
type Guarded<R> =
  | Exclude<R, CurrentCaller>
  | Tokens
  | LoopbackAccess
  | IncomingRequest

/** `Authorization: Basic base64(user:password)` (RFC 7617); `None` when absent or malformed. */
export const basicCredentials = (
  header: string | undefined
): Option.Option<{ readonly username: string; readonly password: Redacted.Redacted<string> }> => {
  const match = header === undefined ? null : /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header)
  if (match?.[1] === undefined) return Option.none()
  const decoded = Buffer.from(match[1], "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  if (colon <= 0) return Option.none()
  return Option.some({ username: decoded.slice(0, colon), password: Redacted.make(decoded.slice(colon + 1)) })
}

/** The ready request printed after `listening on` on a first run. */
export const curlExample = (baseUrl: string, token: Redacted.Redacted<string>): string =>
  `try it: curl -H "Authorization: Bearer ${Redacted.value(token)}" ${baseUrl}/api/v1/services`
