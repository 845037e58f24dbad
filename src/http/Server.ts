import { NodeHttpServer } from "@effect/platform-node"
import { Console, Effect, Layer, LogLevel } from "effect"
import { HttpServer } from "effect/http"
import { formatUrlHostString } from "effect/net/NetAddress"
import { createServer } from "node:http"
import { GatewayConfig } from "../GatewayConfig.ts"
import { withRequestLog } from "./RequestLog.ts"
import { type Route, toHttpApp } from "./RouteTable.ts"

/**
 * Serves `routes` on `GatewayConfig.host`/`port` and, once requests are being answered, prints
 * one line `listening on http://HOST:PORT` with the bound port (port 0 picks a free one):
 * scripts and tests wait for it. Closing the layer's scope stops the server.
 */
export const layer = <R>(routes: ReadonlyArray<Route<R>>) =>
  Layer.effectDiscard(serve(routes)).pipe(Layer.provideMerge(nodeServer))

const serve = <R>(routes: ReadonlyArray<Route<R>>) =>
  Effect.gen(function* () {
    const app = yield* Effect.fromResult(toHttpApp(routes))
    // Decided once, here: with debug off, requests do not even pass through the logging wrapper.
    yield* HttpServer.serveEffect((yield* LogLevel.isEnabled("Debug")) ? withRequestLog(app) : app)
    const { address } = yield* HttpServer.HttpServer
    const { host } = yield* GatewayConfig
    const where = address._tag === "UnixPathAddress" ? address.path : `http://${formatUrlHostString(host)}:${address.port}`
    yield* Console.log(`listening on ${where}`)
  })

const nodeServer = Layer.unwrap(
  Effect.map(GatewayConfig, ({ host, port }) => NodeHttpServer.layerServer(createServer, { host, port }))
)
