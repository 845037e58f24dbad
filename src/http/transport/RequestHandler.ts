import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Observe } from "../observation/ObservedRequests.ts"
import { ServiceUnavailable, toResponse } from "../routing/HttpError.ts"
import { doneAlready } from "../../gateway/AlreadyDone.ts"
import { IncomingRequest, type IncomingRequestShape } from "../routing/IncomingRequest.ts"
import * as Query from "../routing/Query.ts"
import type { Answer, HttpApp, PerRequest } from "../routing/RouteTable.ts"
import type { ClientOf } from "../routing/TrustedProxies.ts"
import { writeAnswer } from "./NodeAnswer.ts"
import { madeWhole } from "./StreamedText.ts"
import { type CorsAnswer, securityHeaders } from "./ResponseHeaders.ts"

/**
 * The gateway's own Node request handler: the route table and what stands in front of it, compiled
 * into plain steps over Node's `IncomingMessage` (the start and the stop, the dashboard's files, CORS,
 * trusted proxies, the route table, the query check, the observation), then, for a request a route
 * answers, one Effect program (access, body, handler, answer) run on the services given once, whose
 * answer is written on Node's `ServerResponse` directly. The platform's upgrade handler runs the same
 * steps for a WebSocket's request (`upgradeApp`).
 */

/** What stands in front of the routes, decided when the server starts. */
export interface Front<R> {
  readonly table: HttpApp<R>
  /** Whether the gateway has yet to start (the server may be listening already). */
  readonly starting: () => boolean
  /** Whether its stop has begun (ConnectionDrain). */
  readonly stopping: () => boolean
  /** The dashboard's file a request asks for, if any (DashboardRoutes). */
  readonly dashboard: (request: IncomingRequestShape) => HttpServerResponse.HttpServerResponse | undefined
  readonly cors: (method: string, headers: IncomingMessage["headers"]) => CorsAnswer | undefined
  readonly clientOf: ClientOf
  readonly observe: Observe
}

const starting = toResponse(new ServiceUnavailable({ message: "the gateway is starting", retryAfterSeconds: 1 }))
const shuttingDown = toResponse(new ServiceUnavailable({ message: "the gateway is shutting down" }))

const withHeaders = <R>(answer: Answer<R>, headers: Readonly<Record<string, string>>): Answer<R> => {
  if (typeof answer !== "function") return HttpServerResponse.setHeaders(answer, headers)
  const headed = (response: HttpServerResponse.HttpServerResponse) => HttpServerResponse.setHeaders(response, headers)
  return (context) => Effect.mapEager(answer(context), headed)
}

/** A request as read, and its answer. */
interface Answering<R> {
  readonly request: IncomingRequestShape
  readonly answer: Answer<R>
}

/**
 * The answer to `source`, observed. Until the gateway has started, every request is answered 503 with
 * `Retry-After` (the first run's admin may not exist yet). Nothing new is done once the stop has begun: a
 * request Node parses after it (one pipelined behind a running one) gets a 503 with `Connection: close`
 * (see ConnectionDrain) and no write is applied for it; requests already running are answered as usual.
 * The answer to an upgrade request that is refused (a watch socket without a token, or during the start)
 * is written on the socket by the platform, so it gets the security headers here (`upgrade`).
 */
export const answering = <R>(front: Front<R>) => {
  const headed = (answer: Answer<R>, upgrade: boolean): Answer<R> => (upgrade ? withHeaders(answer, securityHeaders) : answer)
  const routed = (request: IncomingRequestShape, client: ReturnType<ClientOf>): Answer<R> => {
    if (front.starting()) return headed(starting, request.upgrading)
    // The dashboard's page and assets (Dashboard): a lookup, not a step of its own on every request.
    const file = front.dashboard(request)
    if (file !== undefined) return file
    if (front.stopping()) return headed(shuttingDown, request.upgrading)
    if (Result.isFailure(client)) return headed(toResponse(client.failure), request.upgrading)
    return headed(front.table(request), request.upgrading)
  }
  return (source: IncomingMessage, upgrade: boolean): Answering<R> => {
    const start = performance.now()
    const url = source.url ?? "/"
    const queryStart = url.indexOf("?")
    const path = queryStart === -1 ? url : url.slice(0, queryStart)
    const method = source.method ?? "GET"
    const { headers } = source
    const client = front.clientOf(source.socket.remoteAddress, headers)
    const request: IncomingRequestShape = {
      source,
      method,
      path,
      query: queryStart === -1 ? Query.none : Query.parse(url.slice(queryStart + 1)),
      headers,
      upgrading: upgrade,
      remoteAddress: Result.isSuccess(client) ? client.success : undefined
    }
    const cors = front.cors(method, headers)
    const answer = cors === undefined ? routed(request, client) : cors.preflight ?? withHeaders(routed(request, client), cors.headers)
    return { request, answer: front.observe(method, path, start, answer) }
  }
}

/** Writes the answer a program ended with. A failure is an interruption (errors are answers): the client went away, or the server stopped. */
const send = (source: IncomingMessage, response: ServerResponse, exit: Exit.Exit<HttpServerResponse.HttpServerResponse>): void => {
  if (Exit.isSuccess(exit)) writeAnswer(source, response, exit.value)
  else if (!response.writableEnded) response.destroy()
}

/** `services` as the context of a request without query parameters (most): made once, to which each request adds itself. */
const withoutQuery = <S>(services: Context.Context<S>): Context.Context<S | HttpServerRequest.ParsedSearchParams> =>
  Context.add(services, HttpServerRequest.ParsedSearchParams, Query.none)

/** The context of `request`'s program: `services` (`withoutQuery`), with the request, and its query parameters if it has any (PerRequest). */
const contextOf = <S>(services: Context.Context<S | HttpServerRequest.ParsedSearchParams>, request: IncomingRequestShape): Context.Context<S | PerRequest> => {
  const context = Context.add(services, IncomingRequest, request)
  return request.query === Query.none ? context : Context.add(context, HttpServerRequest.ParsedSearchParams, request.query)
}

/**
 * Node's `request` listener answering with `answering`: an answer given at once is written at once; a
 * route's program is made on `services` with the request's own (IncomingRequest, its query) and, done at
 * once (RouteProgram), written within Node's event without a fiber; else run in a fiber, written when it
 * completes: within Node's event if it completes at once, else later, when the fiber joins `scope` (whose
 * closing interrupts it) and is interrupted if its client goes away first.
 */
export const nodeHandler = <S>(
  answer: (source: IncomingMessage, upgrade: boolean) => Answering<S | PerRequest>,
  services: Context.Context<S>,
  scope: Scope.Scope
) => {
  const base = withoutQuery(services)
  return (source: IncomingMessage, response: ServerResponse): void => {
    const { request, answer: answered } = answer(source, false)
    if (typeof answered !== "function") {
      writeAnswer(source, response, answered)
      return
    }
    const context = contextOf(base, request)
    const program = answered(context)
    const done = doneAlready(program)
    if (done !== undefined) {
      send(source, response, done)
      return
    }
    const fiber = Effect.runForkWith(context)(program)
    const exit = fiber.pollUnsafe()
    if (exit !== undefined) {
      send(source, response, exit)
      return
    }
    Fiber.runIn(fiber, scope)
    fiber.addObserver((later) => send(source, response, later))
    response.on("close", () => {
      if (!response.writableEnded) fiber.interruptUnsafe()
    })
  }
}

/**
 * The app the platform's upgrade handler runs (a WebSocket's request): the same steps, in the context of
 * the platform's request, which the watch socket upgrades.
 */
export const upgradeApp = <S>(answer: (source: IncomingMessage, upgrade: boolean) => Answering<S | PerRequest>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (platformRequest) => {
    // The gateway's server speaks HTTP/1.1: its requests are Node's `IncomingMessage`.
    const source = NodeHttpServerRequest.toIncomingMessage(platformRequest) as IncomingMessage
    const { request, answer: answered } = answer(source, true)
    if (typeof answered !== "function") return Effect.succeed(answered)
    return Effect.contextWith((services: Context.Context<S>) => {
      const context = contextOf(withoutQuery(services), request)
      // The platform writes the answer: a long list's streamed text is given to it whole (StreamedText).
      return Effect.map(Effect.provideContext(answered(context), context), madeWhole)
    })
  })
