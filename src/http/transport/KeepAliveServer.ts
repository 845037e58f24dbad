import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type WebSocket, WebSocketServer } from "ws"
import { watchProtocol } from "../../api/Watching.ts"

/**
 * The `ws` server of the watch sockets (given to `NodeHttpServer.makeUpgradeHandler`). Frames are bounded
 * like request bodies. Each connection can be found from its request, for what Effect's `Socket` does not
 * offer: knowing when a send has left the process (so that a client that stops reading is noticed instead
 * of growing the server's buffers) and closing it with a code of ours. `pingAll` keeps the connections
 * alive (docs/reference.md §7) and `closeAll` ends them when the server stops (an open WebSocket would
 * otherwise hold the server's close for ever).
 */
export class KeepAliveServer extends WebSocketServer {
  private readonly byConnection = new WeakMap<Duplex, WebSocket>()
  private readonly unanswered = new WeakSet<WebSocket>()

  /**
   * `closeGraceMs`: how long a peer has to answer the server's close frame before its connection is cut
   * (a stalled client never answers): the `ws` server's `closeTimeout`.
   */
  constructor(maxPayload: number, closeGraceMs: number) {
    // `closeTimeout` (ws 8.18) is missing from ws's types. `clients` is kept (`clientTracking`, the default).
    // The answered subprotocol is the watch socket's only, never the first offered (`ws`'s default), which
    // may be a browser's `bearer.<token>`: the route refused before the upgrade a request that offers others only.
    const options = {
      maxPayload,
      closeTimeout: closeGraceMs,
      noServer: true,
      handleProtocols: (offered: ReadonlySet<string>) => (offered.has(watchProtocol) ? watchProtocol : false)
    }
    super(options)
  }

  // `ws` calls back once the handshake is done, before the platform hands the connection out.
  override handleUpgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    callback: (ws: WebSocket, request: IncomingMessage) => void
  ): void {
    super.handleUpgrade(request, socket, head, (ws, upgraded) => {
      this.byConnection.set(socket, ws)
      ws.on("pong", () => this.unanswered.delete(ws))
      callback(ws, upgraded)
    })
  }

  /** The WebSocket an upgraded connection became, once the handshake is done. */
  of(connection: Duplex): WebSocket | undefined {
    return this.byConnection.get(connection)
  }

  /** Drops every peer that did not answer the previous ping and pings the others. */
  pingAll(): void {
    for (const ws of this.clients) {
      if (this.unanswered.has(ws)) {
        ws.terminate()
      } else {
        this.unanswered.add(ws)
        ws.ping()
      }
    }
  }

  /**
   * The bytes waiting in the process for the peer that is furthest behind: frames `ws` holds and the
   * connection's unwritten buffer (`bufferedAmount`), counted when asked.
   */
  mostUnsentBytes(): number {
    let most = 0
    for (const ws of this.clients) most = Math.max(most, ws.bufferedAmount)
    return most
  }

  /** Closes every open connection with 1001 "going away" (a peer that does not answer within the close grace is cut). */
  closeAll(reason: string): void {
    for (const ws of this.clients) ws.close(1001, reason)
  }
}

/**
 * The server of the watch sockets, pinging its peers every `pingInterval` and cutting a peer that has not
 * answered its close within `closeGrace`, closed with the layer.
 */
export class WebSockets extends Context.Service<WebSockets, KeepAliveServer>()("app/WebSockets") {
  static readonly layer = (
    { closeGrace, maxPayload, pingInterval }: {
      readonly maxPayload: number
      readonly pingInterval: Duration.Input
      readonly closeGrace: Duration.Input
    }
  ) =>
    Layer.effect(
      WebSockets,
      Effect.acquireRelease(
        Effect.sync(() => {
          const server = new KeepAliveServer(maxPayload, Duration.toMillis(Duration.fromInputUnsafe(closeGrace)))
          const pings = setInterval(() => server.pingAll(), Duration.toMillis(Duration.fromInputUnsafe(pingInterval)))
          return { server, pings }
        }),
        ({ pings, server }) =>
          Effect.callback<void>((resume) => {
            clearInterval(pings)
            server.close(() => resume(Effect.void))
          })
      ).pipe(Effect.map(({ server }) => server))
    )
}
