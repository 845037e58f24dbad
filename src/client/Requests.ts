import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { HttpBody, type HttpClient, HttpClientRequest } from "effect/http"
import type { Endpoint, Method, Path } from "../api/Endpoint.ts"
import { parseJson } from "../vocabulary/common/JsonText.ts"
import { type ClientError, NoToken, statusError, Transport } from "./ClientError.ts"
import { type DeprecationNotice, deprecationIn } from "./DeprecationNotice.ts"
import type { Operation } from "./Operations.ts"
import { RequestTimeout } from "./RequestTimeout.ts"
import { transportFailure } from "./TransportFailure.ts"

/**
 * Where the gateway is and who asks: its base URL (`http://host:port`) and an API or session token; without
 * one, the client calls only the routes open to anyone (`health`).
 */
export interface Connection {
  readonly url: string
  readonly token?: string | undefined
  /** How long a request may wait for its whole answer, in ms (default 10 s); a write that timed out may still have been applied. */
  readonly timeoutMs?: number | undefined
  /** Told when an answer says its API is deprecated. */
  readonly deprecated?: ((notice: DeprecationNotice) => void) | undefined
}


/**
 * The token a request to `endpoint` carries, as its access says: none to an open route (a token is sent
 * only where it is needed), the client's to any other, which fails before anything is sent if it has none.
 */
export const tokenFor = (connection: Connection, endpoint: Endpoint): Result.Result<Option.Option<string>, NoToken> => {
  if (endpoint.access._tag === "Open") return Result.succeed(Option.none())
  return connection.token === undefined
    ? Result.fail(new NoToken({ operationId: endpoint.operationId }))
    : Result.succeed(Option.some(connection.token))
}

/** `Authorization: Bearer` with `token`, if there is one. */
export const bearerHeader = (token: Option.Option<string>): Readonly<Record<string, string>> =>
  Option.match(token, { onNone: () => ({}), onSome: (t) => ({ authorization: `Bearer ${t}` }) })

/**
 * Where a request is sent: the route's own method and path, except a read with a body, sent to an alias
 * that takes it at POST or PUT where the route has one (a browser's fetch sends no body with GET).
 */
export const routeOf = (endpoint: Endpoint, withBody: boolean): { readonly method: Method; readonly path: Path } => {
  if (!withBody || endpoint.method !== "GET") return endpoint
  const alias = endpoint.aliases.find((a) => a.path === undefined && (a.method === "POST" || a.method === "PUT"))
  return { method: alias?.method ?? endpoint.method, path: endpoint.path }
}

/** The URL of `path` under the gateway's base URL, with `query`. */
export const urlOf = (connection: Connection, path: Path, query: Readonly<Record<string, string>>): string => {
  const url = new URL(`${connection.url.replace(/\/+$/, "")}${path}`)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  return url.toString()
}

const parsed = (text: string): Result.Result<unknown, Transport> =>
  text === ""
    ? Result.succeed(undefined)
    : Result.mapError(parseJson(text), () => new Transport({ reason: "Unreadable", message: `the gateway answered something that is not JSON: ${text.slice(0, 200)}` }))

/** The gateway's words for a refusal: its JSON string, else the text as it came. */
export const messageOf = (text: string): string => {
  const json = parsed(text)
  return Result.isSuccess(json) && typeof json.success === "string" ? json.success : text
}

/**
 * Sends one operation: the body written in the operation's vocabulary before anything is sent (a value
 * it cannot say fails here, as `Unexpressible`), the answer read with the route's answer shape, and a
 * refusal turned into its typed error. `body` absent: the route's meaning of no body (a read: everything).
 */
export const send = <B, A>(
  http: HttpClient.HttpClient,
  connection: Connection,
  operation: Operation<B, A>,
  body: Option.Option<B>
): Effect.Effect<A, ClientError> =>
  Effect.gen(function*() {
    const json = yield* Option.match(body, {
      onNone: () => Effect.succeed(Option.none<unknown>()),
      onSome: (value) => Effect.map(Effect.fromResult(operation.write(value)), Option.some)
    })
    const token = yield* Effect.fromResult(tokenFor(connection, operation.endpoint))
    const { method, path } = routeOf(operation.endpoint, Option.isSome(json))
    const request = HttpClientRequest.make(method)(urlOf(connection, path, operation.query), {
      headers: bearerHeader(token),
      acceptJson: true,
      ...(Option.isSome(json) ? { body: HttpBody.text(JSON.stringify(json.value), "application/json") } : {})
    })
    const said = `${method} ${request.url}`
    const timeout = (yield* RequestTimeout) ?? connection.timeoutMs ?? 10_000
    const [response, text] = yield* Effect.flatMap(http.execute(request), (r) => Effect.map(r.text, (t) => [r, t] as const)).pipe(
      Effect.mapError((error) => transportFailure(said, error)),
      // A race with a sleep, not `timeoutOrElse`, whose timer in effect 4.1 outlives the call (and holds a
      // Node process open for the time-out); the request that loses is interrupted, its connection closed.
      Effect.raceFirst(Effect.andThen(
        Effect.sleep(timeout),
        () => Effect.fail(new Transport({ reason: "TimedOut", message: `${said}: no answer within ${timeout / 1000} s (a write may still have been applied)` }))
      ))
    )
    const notice = deprecationIn(response.headers, connection.url)
    if (notice !== undefined) connection.deprecated?.(notice)
    if (response.status < 200 || response.status >= 300) {
      return yield* Effect.fail(statusError(response.status, messageOf(text), response.headers["retry-after"]))
    }
    const answer = yield* Effect.fromResult(parsed(text))
    return yield* Effect.fromResult(Result.mapError(
      operation.read(answer),
      (problem) => new Transport({ reason: "Unreadable", message: `the gateway's answer does not read as ${operation.endpoint.operationId} answers: ${problem.message}` })
    ))
  })
