import { NodeHttpServer } from "@effect/platform-node"
import { Console, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { formatUrlHostString } from "effect/net/NetAddress"
import { createServer } from "node:http"
import { GatewayConfig } from "../GatewayConfig.ts"
import { type ConnectionDrain, drainConnections } from "./ConnectionDrain.ts"
import { ServiceUnavailable, toResponse } from "./HttpError.ts"
import { type HttpApp, type Route, toHttpApp } from "./RouteTable.ts"

/**
 * Serves `routes` on `GatewayConfig.host`/`port` and, once requests are being answered, prints
 * one line `listening on http://HOST:PORT` with the bound port (port 0 picks a free one):
 * scripts and tests wait for it. Closing the layer's scope stops the server: see ConnectionDrain.
 */
export const layer = <R>(routes: ReadonlyArray<Route<R>>) =>
  Layer.unwrap(
    Effect.map(GatewayConfig, ({ host, port }) => {
      const server = createServer()
      const drain = drainConnections(server)
      return Layer.effectDiscard(serve(routes, drain)).pipe(
        Layer.provideMerge(NodeHttpServer.layerServer(() => server, { host, port }))
      )
    })
  )

/**
 * Nothing new is done once the stop has begun: a request Node parses after it (one pipelined behind a
 * running one) gets a 503 with `Connection: close` (see ConnectionDrain) and no write is applied for it;
 * requests already running are answered as usual.
 */
const refusedWhileStopping = <R>(app: HttpApp<R>, drain: ConnectionDrain): HttpApp<R> =>
  Effect.suspend(() =>
    drain.stopping()
      ? Effect.succeed(toResponse(new ServiceUnavailable({ message: "the gateway is shutting down" })))
      : app
  )

const serve = <R>(routes: ReadonlyArray<Route<R>>, drain: ConnectionDrain) =>
  Effect.gen(function* () {
    const app = yield* Effect.fromResult(toHttpApp(routes))
    yield* HttpServer.serveEffect(refusedWhileStopping(app, drain))
    // Runs before the server's own close (finalizers run in reverse): running requests finish, idle
    // connections go now, and the close that follows waits only for the running ones.
    yield* Effect.addFinalizer(() => Effect.sync(drain.stop))
    const { address } = yield* HttpServer.HttpServer
    const { host } = yield* GatewayConfig
    const where = address._tag === "UnixPathAddress" ? address.path : `http://${formatUrlHostString(host)}:${address.port}`
    yield* Console.log(`listening on ${where}`)
  })
