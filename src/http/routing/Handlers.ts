import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Result from "effect/Result"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  type AnswerOf,
  type BodyOf,
  type Endpoint,
  type Group,
  type QueryParameters,
  type QueryValues,
  routesOf
} from "../../api/Endpoint.ts"
import { formatPath } from "../../vocabulary/common/InvalidInput.ts"
import { negotiated, varyAccept } from "./ContentNegotiation.ts"
import { BadRequest, type HttpError, jsonMessage } from "./HttpError.ts"
import { IncomingRequest } from "./IncomingRequest.ts"
import * as Query from "./Query.ts"
import { decodeBody } from "../body/RequestBody.ts"
import type { Route } from "./RouteTable.ts"
import { streamedTextOf } from "../transport/StreamedText.ts"
import { piecesAnswer } from "./PiecesAnswer.ts"

/**
 * Handlers bound to the endpoints of src/api. The endpoint says how a request is read (a WebSocket's
 * upgrade, the query parameters, the body) and how it is answered (status, and the shape that writes the
 * JSON), so a handler takes the request read and answers the canonical value: how to do both for an
 * endpoint is decided when the routes are built, not per request.
 */

/** A request to `E`, as its endpoint reads it. */
export interface Request<E extends Endpoint> {
  readonly query: QueryValues<E["query"]>
  readonly body: BodyOf<E>
}

/**
 * What answers a request to `E`: the request read, and its context, from which a handler that may have nothing
 * to wait for takes its services and answers at once, done (HealthRoutes, the reads and writes of values);
 * the others ask their context for them in the program they answer, as Effect's services are asked for.
 */
export type Handler<E extends Endpoint, R> = (request: Request<E>, context: Context.Context<R>) => Effect.Effect<AnswerOf<E>, HttpError, R>

/** What reading a request to `E` needs, beside its handler's own needs. */
type ReadingNeeds<E extends Endpoint> =
  | (E["body"] extends undefined ? never : IncomingRequest)
  | (keyof E["query"] extends never ? never : HttpServerRequest.ParsedSearchParams)
  | (E["upgrade"] extends undefined ? never : IncomingRequest)
  | (E["answer"] extends { rawBinary(value: never): unknown } ? IncomingRequest : never)

const noValues: { readonly [name: string]: unknown } = {}

/** The query parameters `parameters` names, each read as it says; a 400 names the first one unreadable. */
const queryOf = (parameters: QueryParameters) => {
  const names = Object.keys(parameters)
  return (params: Query.QueryParams): Result.Result<{ readonly [name: string]: unknown }, BadRequest> => {
    const values: Record<string, unknown> = {}
    for (const name of names) {
      const text = Query.first(params, name)
      const value = text === undefined ? undefined : parameters[name]?.read(text)
      if (value === undefined) continue
      if (Result.isFailure(value)) {
        const { path, reason } = value.failure
        return Result.fail(new BadRequest({ message: `${formatPath(path, `query.${name}`)}: ${reason}` }))
      }
      values[name] = value.success
    }
    return Result.succeed(values)
  }
}

/** A route's answer as built here; what it needs is told by `bind`'s type. */
type Answered = Effect.Effect<HttpServerResponse.HttpServerResponse, HttpError, unknown>

type ReadRequest = { readonly query: { readonly [name: string]: unknown }; readonly body: unknown }

type AnyContext = Context.Context<unknown>

/**
 * The request to `endpoint` read (its query parameters, then its body), then `handle`d, each step at once
 * while the one before it is done. Only the steps the endpoint needs are taken, and a body read whatever
 * the query says (most are) has its reading built once, here.
 */
const readThen = (
  endpoint: Endpoint,
  handle: (request: ReadRequest, context: AnyContext) => Answered
): (context: AnyContext) => Answered => {
  const { body } = endpoint
  const query = Object.keys(endpoint.query).length === 0 ? undefined : queryOf(endpoint.query)
  const bodyOf = body === undefined
    ? undefined
    : (values: ReadRequest["query"]) => decodeBody((json) => body.read(json, values), body.whenAbsent)
  const bodyAlone = query === undefined ? bodyOf?.(noValues) : undefined
  return (context) => {
    let values = noValues
    if (query !== undefined) {
      const read = query(Context.get(context, HttpServerRequest.ParsedSearchParams))
      if (Result.isFailure(read)) return Effect.fail(read.failure)
      values = read.success
    }
    const reading = bodyAlone ?? bodyOf?.(values)
    if (reading === undefined) return handle({ query: values, body: undefined }, context)
    const read = reading(context)
    return Exit.isSuccess(read) ? handle({ query: values, body: read.value }, context) : Exit.failCause(read.cause)
  }
}

/** A WebSocket endpoint answers a request without `Upgrade: websocket` with 426, before reading anything else. */
const upgradeRequired = (endpoint: Endpoint) =>
  jsonMessage(426, `${endpoint.path} is a WebSocket: connect with "Upgrade: websocket" (see docs/watching.md)`, {
    upgrade: "websocket",
    connection: "Upgrade"
  })

/**
 * How what a handler answers is sent: as JSON its endpoint's shape writes, with its status (or the bytes
 * of a lone Binary value, if the client prefers them), or as the text it writes in the answer's media type;
 * or, for an answer without a body, its status alone.
 * A WebSocket's route answers once the socket is closed, to nobody: the connection is the socket's by then.
 */
const answerOf = ({ answer, upgrade }: Endpoint): (answered: Effect.Effect<unknown, HttpError, unknown>) => Answered => {
  const { shape, status } = answer
  if (shape === undefined) {
    const empty = upgrade === undefined ? HttpServerResponse.empty({ status }) : HttpServerResponse.empty()
    return (answered) => Effect.mapEager(answered, () => empty)
  }
  const { mediaType, rawBinary } = answer
  const options = status === 200 ? undefined : { status }
  // A read that may answer raw bytes says so on its JSON too (ContentNegotiation). Set on the response
  // made, not given with the body: given, the platform copies them into an object whose prototype it
  // then changes, which cost twice as much as the response itself.
  const jsonResponse = rawBinary === undefined
    ? (written: unknown) => HttpServerResponse.jsonUnsafe(written, options)
    : (written: unknown) => HttpServerResponse.setHeader(HttpServerResponse.jsonUnsafe(written, options), "vary", varyAccept.vary)
  if (mediaType !== undefined) {
    return (answered) => Effect.mapEager(answered, (value) => HttpServerResponse.text(String(shape.write(value)), { status, contentType: mediaType }))
  }
  // A shape that writes its JSON text in pieces (a list) is answered with their bytes, or, if the text is
  // long, with the pieces streamed as they are made (PiecesAnswer).
  const { jsonText } = shape
  const bytesOptions = { status, contentType: "application/json" }
  const written = jsonText === undefined
    ? (value: unknown) => jsonResponse(shape.write(value))
    : rawBinary === undefined
    ? (value: unknown) => piecesAnswer(jsonText(value), bytesOptions)
    : (value: unknown) => HttpServerResponse.setHeader(piecesAnswer(jsonText(value), bytesOptions), "vary", varyAccept.vary)
  // The same value as the last answer (the whole home's listing while the home is unchanged: WholeHome)
  // is the same response: written once, not per request. A streamed answer is sent once, and made again
  // for the next request: kept, its text would be the whole of it in memory.
  let lastValue: unknown
  let lastResponse: HttpServerResponse.HttpServerResponse | undefined
  const json = (value: unknown) => {
    if (lastResponse !== undefined && lastValue === value) return lastResponse
    const response = written(value)
    lastValue = value
    lastResponse = streamedTextOf(response) === undefined ? response : undefined
    return response
  }
  if (rawBinary === undefined) return (answered) => Effect.mapEager(answered, json)
  const negotiate = negotiated(rawBinary, json)
  return (answered) => Effect.flatMapEager(answered, negotiate)
}

/** The routes of `endpoint` (its own method and path, and its aliases'), answered by `handler`. */
export const bind = <E extends Endpoint, R>(endpoint: E, handler: Handler<E, R>): ReadonlyArray<Route<R | ReadingNeeds<E>>> => {
  const answer = answerOf(endpoint)
  // What the endpoint's own query parameters and body read is what `Request<E>` says, in types.
  const handle = handler as (request: ReadRequest, context: AnyContext) => Effect.Effect<unknown, HttpError, unknown>
  const handled = readThen(endpoint, (request, context) => answer(handle(request, context)))
  const refused = Effect.succeed(upgradeRequired(endpoint))
  const routeHandler = endpoint.upgrade === undefined ? handled : (context: AnyContext) => {
    const request = Context.get(context, IncomingRequest)
    return request.upgrading && request.headers["upgrade"]?.toLowerCase() === "websocket" ? handled(context) : refused
  }
  // What reading and answering need is what `ReadingNeeds<E>` says; the handler's own, `R`.
  return routesOf(endpoint).map((route) => ({ ...route, handler: routeHandler as Route<R | ReadingNeeds<E>>["handler"] }))
}

/** A handler for each endpoint of `G`, by operation id. */
export type Handlers<G extends Group> = { readonly [Id in keyof G]: Handler<G[Id], unknown> }

/** What a handler needs: what its program asks for, and what it takes from its context. */
type NeedsOf<H> = H extends (...args: infer P) => Effect.Effect<unknown, unknown, infer R> ? R | ContextNeeds<P> : never
type ContextNeeds<P> = P extends readonly [unknown, Context.Context<infer C>] ? C : never

/**
 * The routes of every endpoint of `group`, each answered by its handler; the services they need are
 * inferred. A handler missing, or one for no endpoint of the group, is a type error.
 */
export const bindGroup = <G extends Group, H extends Handlers<G>>(
  group: G,
  handlers: H & { readonly [Id in Exclude<keyof H, keyof G>]: never }
): ReadonlyArray<Route<{ [Id in keyof G]: NeedsOf<H[Id]> | ReadingNeeds<G[Id]> }[keyof G]>> =>
  Object.keys(group).flatMap((id) => {
    const endpoint: Endpoint | undefined = group[id]
    const handler = handlers[id] as Handler<Endpoint, unknown> | undefined
    return endpoint === undefined || handler === undefined ? [] : bind(endpoint, handler)
  }) as ReadonlyArray<Route<{ [Id in keyof G]: NeedsOf<H[Id]> | ReadingNeeds<G[Id]> }[keyof G]>>
