import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodePath from "@effect/platform-node/NodePath"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import { HttpServer, type HttpServerRequest } from "effect/http"
import { formatUrlHostString } from "effect/net/NetAddress"
import type { Server } from "node:http"
import { BodiesReadFirst, bodyFirst } from "./BodyFirst.ts"
import { answering as requestAnswering, nodeHandler, upgradeApp } from "./RequestHandler.ts"
import { type ConnectionDrain, drainConnections } from "./ConnectionDrain.ts"
import { dashboardAnswer, loadDashboard } from "../routes/DashboardRoutes.ts"
import { WebSockets } from "./KeepAliveServer.ts"
import { observing } from "../observation/ObservedRequests.ts"
import { http } from "./NodeHttp.ts"
import { corsOf, SecuredResponse, securing } from "./ResponseHeaders.ts"
import type { TrustedProxies } from "../routing/ClientAddress.ts"
import { behindTrustedProxies } from "../routing/TrustedProxies.ts"
import { bodyLimits, type HttpApp, type PerRequest, type Route, toHttpApp } from "../routing/RouteTable.ts"
import type { VocabularyADeprecation } from "../observation/VocabularyADeprecation.ts"

export interface ServerOptions {
  readonly host: string
  /** `0` picks a free port. */
  readonly port: number
  /** Request bodies and WebSocket frames over this many bytes are refused (413, or the socket closed). */
  readonly maxBodyBytes: number
  /** Origins whose pages may call the API (CORS). */
  readonly corsOrigins: ReadonlyArray<string>
  /** `--trust-proxy`: the proxies whose relay headers name a request's client. */
  readonly trustedProxies: TrustedProxies
  /** The folder of the built dashboard, served at `/` (Dashboard); none: the API alone. */
  readonly dashboard: Option.Option<string>
  /** How often a WebSocket peer is pinged; one that did not answer the previous ping is dropped. */
  readonly watchPing: Duration.Input
  /** How long a WebSocket peer has to answer the server's close before its connection is cut. */
  readonly watchCloseGrace: Duration.Input
  /** How long a client has to send a request's headers, in ms (`serverTimeouts`' 10 s by default). */
  readonly headersTimeout: number
  /** `--deprecate-vocabulary-a`: A's answers say it is deprecated. */
  readonly deprecation: Option.Option<VocabularyADeprecation>
}

/**
 * Serves `routes` on `host`/`port` (with the server `makeServer` makes: by default one with
 * `serverOptions`; the benchmarks' way in without a socket) and, once requests are being answered, prints
 * one line `listening on http://HOST:PORT` with the bound port (port 0 picks a free one):
 * scripts and tests wait for it. Closing the layer's scope stops the server: see ConnectionDrain.
 */
export const layer = <R>(routes: ReadonlyArray<Route<R>>, options: ServerOptions, makeServer?: () => Server) =>
  layerOnceBound(routes, Layer.empty, options, makeServer)

/**
 * `layer`, with `onceBound` built after the port is bound and before requests are answered: what a
 * start that cannot listen must not do (FirstRun's one-time credentials). The server's listeners are
 * all in place before it listens: from the bind until `onceBound` is built, every request and upgrade
 * request is answered 503 "the gateway is starting" (a connection the server took but never answered
 * would also hold its stop for the whole grace).
 */
export const layerOnceBound = <R, A, E, RB>(
  routes: ReadonlyArray<Route<R>>,
  onceBound: Layer.Layer<A, E, RB>,
  options: ServerOptions,
  makeServer: () => Server = () => http.createServer({ ...serverOptions, headersTimeout: options.headersTimeout })
) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const { host, port } = options
      const server = makeServer()
      server.prependListener("request", securing(server))
      const drain = drainConnections(server)
      let started = false
      yield* answer(routes, server, { starting: () => !started, drain }, options)
      const ready = Effect.gen(function*() {
        yield* stopInOrder(server, drain)
        started = true
        const { address } = yield* HttpServer.HttpServer
        const where = address._tag === "UnixPathAddress" ? address.path : `http://${formatUrlHostString(host)}:${address.port}`
        yield* Console.log(`listening on ${where}`)
      })
      return Layer.effectDiscard(ready).pipe(
        Layer.provideMerge(onceBound),
        Layer.provideMerge(NodeHttpServer.layerServer(() => server, { host, port }))
      )
    })
  ).pipe(Layer.provideMerge(WebSockets.layer({
    maxPayload: options.maxBodyBytes,
    pingInterval: options.watchPing,
    closeGrace: options.watchCloseGrace
  })))

/** Where the server is in its life: what the request handler answers besides the routes. */
interface Lifecycle {
  /** Whether the gateway has yet to start (the server may be listening already). */
  readonly starting: () => boolean
  readonly drain: ConnectionDrain
}

/**
 * Puts the routes on `server` (not listening yet): compiled into the gateway's request handler
 * (RequestHandler) behind the body-first step (BodyFirst), and as the platform's upgrade handler's app.
 */
const answer = <R>(routes: ReadonlyArray<Route<R>>, server: Server, lifecycle: Lifecycle, options: ServerOptions) =>
  Effect.gen(function* () {
    const { corsOrigins, maxBodyBytes } = options
    const table = yield* Effect.fromResult(toHttpApp(routes))
    const dashboard = Option.isSome(options.dashboard)
      ? yield* loadDashboard(options.dashboard.value).pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)))
      : Option.none()
    const reading = bodyFirst(bodyLimits(routes, maxBodyBytes))
    // The requests are answered in this context (the routes' services): the bodies read first are given here, once.
    const services = Context.add(yield* Effect.context<Exclude<R, Given>>(), BodiesReadFirst, reading.bodies)
    const answering = requestAnswering({
      table: routesNeeding(table),
      starting: lifecycle.starting,
      stopping: lifecycle.drain.stopping,
      dashboard: dashboardAnswer(dashboard),
      cors: corsOf(corsOrigins),
      clientOf: behindTrustedProxies(options.trustedProxies),
      // Decided once, here: whether requests are logged (debug), and the registry their metrics go to.
      observe: observing({ metrics: services, log: yield* LogLevel.isEnabled("Debug"), deprecation: options.deprecation })
    })
    // Requests still running when the server has closed are interrupted (last: finalizers run in reverse).
    const requests = yield* Scope.fork(yield* Effect.scope, "parallel")
    reading.register(server, nodeHandler(answering, services, requests), lifecycle.drain.arrived)
    const webSockets = yield* WebSockets
    const upgrades = NodeHttpServer.makeUpgradeHandler(Effect.succeed(webSockets), upgradeApp(answering), { scope: requests })
    server.on("upgrade", yield* upgrades.pipe(Effect.provideContext(services)))
  })

/**
 * The table of `routes`, typed as needing the routes' services and what the request handler gives each
 * request (`PerRequest`). A route that reads the platform's request (the watch socket, which upgrades it)
 * runs only for an upgrade request (Handlers' 426), whose program runs in the platform's context.
 */
const routesNeeding = <R>(table: HttpApp<R>) => table as HttpApp<Exclude<R, Given> | PerRequest>

/** What each request's program is given: `PerRequest`, and for an upgrade request the platform's request. */
type Given = PerRequest | HttpServerRequest.HttpServerRequest

/**
 * The stop, in order (finalizers run in reverse, and these run before the platform's own): idle
 * connections go now, WebSockets, which never end by themselves, are closed with 1001, and the server
 * closes once its running requests are answered.
 */
const stopInOrder = (server: Server, drain: ConnectionDrain) =>
  Effect.gen(function*() {
    const webSockets = yield* WebSockets
    yield* Effect.addFinalizer(() => closed(server))
    yield* Effect.addFinalizer(() => Effect.sync(() => webSockets.closeAll("the gateway is stopping")))
    yield* Effect.addFinalizer(() => Effect.sync(drain.stop))
  })

/** Once `server` has stopped listening and its last connection is gone, or after the platform's grace of 20 s. */
const closed = (server: Server) =>
  Effect.callback<void>((resume) => {
    server.close(() => resume(Effect.void))
  }).pipe(Effect.timeoutOrElse({ duration: Duration.seconds(20), orElse: () => Effect.void }))

/**
 * Time-outs against slow clients: all headers within 10 s (`headersTimeoutMs` sets another), the whole
 * request within 30 s (bodies are at most `--max-body-bytes`), an idle keep-alive connection closed after
 * 5 s. Checked every second. They bound how long a client that sends slowly can hold a socket; an
 * upgraded (watch) socket is no longer a request and is not affected.
 */
export const serverTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000
}

/**
 * The gateway's server: `serverTimeouts`, responses that write the security headers with the others
 * (SecuredResponse), and a request without a body (no `Content-Length` nor `Transfer-Encoding`) taken
 * as ended when it arrives (`optimizeEmptyRequests`, Node 24.12): it emits no `data`, `end` or `close`,
 * so its answer does not set its stream flowing only to end it, a few ticks per request. The gateway
 * reads no such body (BodyFirst's `hasBody`) and listens to its responses' `close`, not its requests'.
 */
export const serverOptions = { ...serverTimeouts, ServerResponse: SecuredResponse, optimizeEmptyRequests: true }
