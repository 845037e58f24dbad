import * as Cause from "effect/Cause"
import type * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Result from "effect/Result"
import type { Method, RouteOf } from "../../api/Endpoint.ts"
import type { HttpServerRequest, HttpServerResponse } from "effect/http"
import { type HttpError, jsonMessage, MethodNotAllowed, NotFound, toResponse } from "./HttpError.ts"
import type { IncomingRequest, IncomingRequestShape } from "./IncomingRequest.ts"
import { doneAlready } from "../../gateway/AlreadyDone.ts"
import * as Query from "./Query.ts"
import { queryCheck } from "./QueryCheck.ts"

/**
 * The HTTP surface as a flat table: exact paths (the API has no path parameters), one handler per
 * method. Each route is an endpoint of src/api (or one of its aliases) with the handler bound to it
 * (`Handlers.bind`); the server concatenates them. Dispatch is two Map lookups, cheaper than a general router.
 */

/**
 * A route's program for one request, made from the request's context (`IncomingRequest` and the services):
 * it reads the request as its endpoint says (src/http/routing/Handlers.ts), answers with a response, and
 * fails only with an `HttpError`; anything else it does wrong is a defect, answered with a 500. A program
 * that has nothing to wait for is made already done, an `Exit`, which the request handler writes without
 * running a fiber; any other runs in the same context. Making it may do the work: call it only once it is
 * to run, after the steps it comes after.
 */
export type RouteProgram<A, E, R> = (context: Context.Context<R>) => Effect.Effect<A, E, R>

/** A route: its endpoint (or one of its aliases), and the program that answers a request to it. */
export interface Route<R = never> extends RouteOf {
  readonly handler: RouteProgram<HttpServerResponse.HttpServerResponse, HttpError, R>
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

/**
 * What the request handler (src/http/transport/RequestHandler.ts) gives every route's program: the request
 * (`IncomingRequest`) and its query parameters, as Effect's usual service for them (`ParsedSearchParams`).
 */
export type PerRequest = IncomingRequest | HttpServerRequest.ParsedSearchParams

/** An answer to a request: at once (404, 405, an unknown query parameter), or a route's program that answers it. */
export type Answer<R> = HttpServerResponse.HttpServerResponse | RouteProgram<HttpServerResponse.HttpServerResponse, never, R>

/** The route table compiled: from a request to its answer, found with two Map lookups. */
export type HttpApp<R> = (request: IncomingRequestShape) => Answer<R>

const internalError = jsonMessage(500, "internal error")

const renderCause = (method: string, path: string) => (cause: Cause.Cause<HttpError>): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const failure = Cause.findError(cause)
  if (Result.isSuccess(failure)) return Effect.succeed(toResponse(failure.success))
  // A client that went away: nobody is left to answer.
  if (Cause.hasInterruptsOnly(cause)) return Effect.interrupt
  return Effect.as(Effect.logError(`${method} ${path} failed`, cause), internalError)
}

/**
 * The program `handler` makes for `context`. Made outside a fiber, a handler's bug that throws (while it
 * reads the request, or writes its answer at once) is a defect, as it would be inside one: answered 500.
 */
const made = <R>(handler: Route<R>["handler"], context: Context.Context<R>): ReturnType<Route<R>["handler"]> => {
  try {
    return handler(context)
  } catch (defect) {
    return Effect.die(defect)
  }
}

/** The path of a request's URL, without its query. */
export const pathOf = (url: string): string => {
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

/** How a route answers: its handler (its failures rendered), after the check of its query. */
interface Answering<R> {
  readonly handler: RouteProgram<HttpServerResponse.HttpServerResponse, never, R>
  readonly unknownParameter: ReturnType<typeof queryCheck>
}

/** The app answering `routes`, or the first duplicate among them. */
export const toHttpApp = <R>(routes: ReadonlyArray<Route<R>>): Result.Result<HttpApp<R>, DuplicateRoute> => {
  const table = new Map<string, Map<string, Answering<R>>>()
  for (const { method, path, handler, endpoint } of routes) {
    const methods = table.get(path) ?? new Map<string, Answering<R>>()
    if (methods.has(method)) return Result.fail(new DuplicateRoute({ method, path }))
    const render = renderCause(method, path)
    const answering: Answering<R> = {
      // A program done at once stays done: its failure is rendered here, without a fiber.
      handler: (context) => {
        const program = made(handler, context)
        const done = doneAlready(program)
        if (done === undefined) return Effect.catchCause(program, render)
        return Exit.isSuccess(done) ? Effect.succeed(done.value) : render(done.cause)
      },
      unknownParameter: queryCheck(Object.keys(endpoint.query))
    }
    table.set(path, methods.set(method, answering))
  }
  const allowed = new Map([...table].map(([path, methods]) => [path, [...methods.keys()]] as const))

  return Result.succeed(({ method, path, query }) => {
    const answering = table.get(path)?.get(method)
    if (answering === undefined) {
      const allow = allowed.get(path)
      return toResponse(allow === undefined ? new NotFound({ path }) : new MethodNotAllowed({ method, allow }))
    }
    // Most requests have no query: nothing to check.
    const unknownParameter = query === Query.none ? undefined : answering.unknownParameter(query)
    return unknownParameter === undefined ? answering.handler : toResponse(unknownParameter)
  })
}
