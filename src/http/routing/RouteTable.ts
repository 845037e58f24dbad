import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type { Method, RouteOf } from "../../api/Endpoint.ts"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { type HttpError, jsonMessage, MethodNotAllowed, NotFound, toResponse } from "./HttpError.ts"
import * as Query from "./Query.ts"
import { queryCheck } from "./QueryCheck.ts"

/**
 * The HTTP surface as a flat table: exact paths (the API has no path parameters), one handler per
 * method. Each route is an endpoint of src/api (or one of its aliases) with the handler bound to it
 * (`Handlers.bind`); the server concatenates them. Dispatch is two Map lookups, cheaper than a general router.
 */

/**
 * A route's handler reads the request as its endpoint says (src/http/routing/Handlers.ts), and from its context
 * what else it needs (`HttpServerRequest.HttpServerRequest`), answers with a response, and fails only
 * with an `HttpError`. Anything else it does wrong is a defect, answered with a 500.
 */
export interface Route<R = never> extends RouteOf {
  readonly handler: Effect.Effect<HttpServerResponse.HttpServerResponse, HttpError, R>
}

/** What the handlers of `routes` need, as their types say. */
export type Requirements<Routes extends ReadonlyArray<Route<unknown>>> = Routes extends ReadonlyArray<Route<infer R>> ? R : never

/** Two routes for one method and path: a programming error, reported when the server starts. */
export class DuplicateRoute extends Data.TaggedError("DuplicateRoute")<{
  readonly method: Method
  readonly path: string
}> {
  override get message(): string {
    return `two routes for ${this.method} ${this.path}`
  }
}

/** What the route table provides to handlers itself. */
type Provided = HttpServerRequest.ParsedSearchParams

export type HttpApp<R> = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  never,
  HttpServerRequest.HttpServerRequest | Exclude<R, Provided>
>

const internalError = jsonMessage(500, "internal error")

const renderCause = (method: string, path: string) => (cause: Cause.Cause<HttpError>) => {
  const failure = Cause.findError(cause)
  if (Result.isSuccess(failure)) return Effect.succeed(toResponse(failure.success))
  // A client that went away: nobody is left to answer.
  if (Cause.hasInterruptsOnly(cause)) return Effect.interrupt
  return Effect.as(Effect.logError(`${method} ${path} failed`, cause), internalError)
}

/** The path of a request's URL, without its query. */
const pathOf = (url: string): string => {
  const queryStart = url.indexOf("?")
  return queryStart === -1 ? url : url.slice(0, queryStart)
}

/**
 * The most bytes of a body the route of a request reads, by its method and URL: its endpoint's `bodyLimit`,
 * never more than `serverLimit` (`--max-body-bytes`), which is the limit of a route that states none.
 * `undefined` for a request no route answers (404, 405): its body is never read.
 */
export const bodyLimits = <R>(
  routes: ReadonlyArray<Route<R>>,
  serverLimit: number
): (method: string, url: string) => number | undefined => {
  const limits = new Map<string, Map<string, number>>()
  for (const { method, path, endpoint } of routes) {
    const limit = Math.min(endpoint.bodyLimit ?? serverLimit, serverLimit)
    limits.set(path, (limits.get(path) ?? new Map<string, number>()).set(method, limit))
  }
  return (method, url) => limits.get(pathOf(url))?.get(method)
}

/** How a route answers: its handler, after the check of its query. */
interface Answering<R> {
  readonly handler: Route<R>["handler"]
  readonly unknownParameter: ReturnType<typeof queryCheck>
}

/** The server app answering `routes`, or the first duplicate among them. */
export const toHttpApp = <R>(routes: ReadonlyArray<Route<R>>): Result.Result<HttpApp<R>, DuplicateRoute> => {
  const table = new Map<string, Map<string, Answering<R>>>()
  for (const { method, path, handler, endpoint } of routes) {
    const methods = table.get(path) ?? new Map<string, Answering<R>>()
    if (methods.has(method)) return Result.fail(new DuplicateRoute({ method, path }))
    table.set(path, methods.set(method, { handler, unknownParameter: queryCheck(Object.keys(endpoint.query)) }))
  }
  const allowed = new Map([...table].map(([path, methods]) => [path, [...methods.keys()]] as const))

  const app: HttpApp<R> = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const url = request.url
    const queryStart = url.indexOf("?")
    const path = queryStart === -1 ? url : url.slice(0, queryStart)
    const answering = table.get(path)?.get(request.method)
    if (answering === undefined) {
      const allow = allowed.get(path)
      return Effect.succeed(
        toResponse(allow === undefined ? new NotFound({ path }) : new MethodNotAllowed({ method: request.method, allow }))
      )
    }
    const params = Query.parse(queryStart === -1 ? "" : url.slice(queryStart + 1))
    const unknownParameter = answering.unknownParameter(params)
    if (unknownParameter !== undefined) return Effect.succeed(toResponse(unknownParameter))
    return answering.handler.pipe(
      Effect.provideService(HttpServerRequest.ParsedSearchParams, params),
      Effect.catchCause(renderCause(request.method, path))
    )
  })
  return Result.succeed(app)
}
