import { NodeHttpClient, NodeSocket } from "@effect/platform-node"
import * as Layer from "effect/Layer"
import type { HttpClient } from "effect/http"
import { HandshakeHeaders } from "../client/WatchHandshake.ts"
import type { Socket } from "effect/socket"

/**
 * `home-gateway/client/node`: the platform of the client in Node (docs/client.md). Node's HTTP client
 * sends vocabulary A's reads with selectors, a GET with a body, which `fetch` refuses; the WebSocket is
 * Node's global one, given handshake headers, so the watch socket sends its token in `Authorization`.
 * Apart from `home-gateway/client` so that a browser bundle never meets a Node module.
 */
export const nodePlatform: Layer.Layer<HttpClient.HttpClient | Socket.WebSocketConstructor> = Layer.mergeAll(
  NodeHttpClient.layerNodeHttp,
  NodeSocket.layerWebSocketConstructor,
  Layer.succeed(HandshakeHeaders, true)
)
