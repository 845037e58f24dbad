import { NodeHttpServer } from "@effect/platform-node"
import { Console, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { formatUrlHostString } from "effect/net/NetAddress"
import { createServer } from "node:http"
import { GatewayConfig } from "../GatewayConfig.ts"
import { WebSockets } from "./KeepAliveWebSocket.ts"
import { type Route, toHttpApp } from "./RouteTable.ts"

/**
 * Serves `routes` on `GatewayConfig.host`/`port` and, once requests are being answered, prints
 * one line `listening on http://HOST:PORT` with the bound port (port 0 picks a free one):
 * scripts and tests wait for it. Closing the layer's scope stops the server.
 */
export const layer = <R>(routes: ReadonlyArray<Route<R>>) =>
  Layer.effectDiscard(serve(routes)).pipe(Layer.provideMerge(nodeServer), Layer.provideMerge(WebSockets.layer))

const serve = <R>(routes: ReadonlyArray<Route<R>>) =>
  Effect.gen(function* () {
    const app = yield* Effect.fromResult(toHttpApp(routes))
    yield* HttpServer.serveEffect(app)
    // Runs before the server's own close, which waits for every connection: WebSockets never end by themselves.
    const webSockets = yield* WebSockets
    yield* Effect.addFinalizer(() => Effect.sync(() => webSockets.closeAll("the gateway is stopping")))
    const { address } = yield* HttpServer.HttpServer
    const { host } = yield* GatewayConfig
    const where = address._tag === "UnixPathAddress" ? address.path : `http://${formatUrlHostString(host)}:${address.port}`
    yield* Console.log(`listening on ${where}`)
  })

// WebSocket frames are bounded like request bodies; connections keep themselves alive (KeepAliveWebSocket).
const nodeServer = Layer.unwrap(
  Effect.gen(function*() {
    const { host, port, maxBodyBytes } = yield* GatewayConfig
    const { WebSocket } = yield* WebSockets
    return NodeHttpServer.layerServer(createServer, { host, port, websocket: { WebSocket, maxPayload: maxBodyBytes } })
  })
)
