import * as Layer from "effect/Layer"
import { HttpClient } from "effect/http"
import { Socket } from "effect/socket"
import { HandshakeHeaders } from "../client/WatchHandshake.ts"
import { nodeHttpClient } from "./NodeHttp.ts"

/**
 * `@home-gateway/client/node`: the platform of the client in Node (docs/client.md). Its HTTP client
 * (./NodeHttp.ts) sends vocabulary A's reads with selectors, a GET with a body, which `fetch` refuses;
 * the WebSocket is Node's global one, given handshake headers, so the watch socket sends its token in
 * `Authorization`. Apart from `@home-gateway/client` so that a browser bundle never meets a Node module.
 */
export const nodePlatform: Layer.Layer<HttpClient.HttpClient | Socket.WebSocketConstructor> = Layer.mergeAll(
  Layer.succeed(HttpClient.HttpClient, nodeHttpClient),
  Layer.succeed(Socket.WebSocketConstructor, (url, options) =>
    new globalThis.WebSocket(url, typeof options === "object" && !Array.isArray(options) ? { protocols: options.protocols, headers: options.headers } : options)),
  Layer.succeed(HandshakeHeaders, true)
)
