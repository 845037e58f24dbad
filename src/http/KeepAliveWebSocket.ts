import type { Duplex } from "node:stream"
import { Context, Duration, Layer } from "effect"
import { WebSocket } from "ws"

/**
 * The WebSocket connections the server accepts (the `ws` server under `@effect/platform-node` makes
 * them with `KeepAliveWebSockets.WebSocket`). Each pings its peer every `pingMs` and is dropped when the
 * previous ping got no answer (docs/reference.md §7). Each can be found from its request, for what Effect's
 * `Socket` does not offer: knowing when a send has left the process (so that a client that stops
 * reading is noticed instead of growing the server's buffers), and closing every connection when the
 * server stops (an open WebSocket would otherwise hold the server's close for ever).
 */
/**
 * How long the server waits for a peer to answer its close frame before it cuts the connection (a
 * stalled client never answers): the `ws` server's `closeTimeout` (Server.ts).
 */
export const CLOSE_GRACE_MS = 1_000

export class KeepAliveWebSockets {
  private readonly open = new Set<WebSocket>()
  private readonly byConnection = new WeakMap<Duplex, WebSocket>()
  readonly WebSocket: typeof WebSocket

  constructor(pingMs: number) {
    const open = this.open
    const byConnection = this.byConnection
    this.WebSocket = class KeepAliveWebSocket extends WebSocket {
      // `ws` calls this once the handshake is done, before handing the connection out.
      setSocket(socket: Duplex, head: Buffer, options: unknown): void {
        setSocketOfWs.call(this, socket, head, options)
        byConnection.set(socket, this)
        open.add(this)
        let answered = true
        this.on("pong", () => {
          answered = true
        })
        const timer = setInterval(() => {
          if (!answered) return this.terminate()
          answered = false
          this.ping()
        }, pingMs)
        timer.unref()
        this.once("close", () => {
          clearInterval(timer)
          open.delete(this)
        })
      }
    }
  }

  /** The WebSocket an upgraded connection became, once the handshake is done. */
  of(connection: Duplex): WebSocket | undefined {
    return this.byConnection.get(connection)
  }

  /** Closes every open connection with 1001 "going away" (a peer that does not answer within `CLOSE_GRACE_MS` is cut). */
  closeAll(reason: string): void {
    for (const ws of this.open) ws.close(1001, reason)
  }
}

const setSocketOfWs = (WebSocket.prototype as unknown as {
  readonly setSocket: (this: WebSocket, socket: Duplex, head: Buffer, options: unknown) => void
}).setSocket

/** The server's WebSocket connections, pinging every `pingInterval`. */
export class WebSockets extends Context.Service<WebSockets, KeepAliveWebSockets>()("app/WebSockets") {
  static readonly layer = ({ pingInterval }: { readonly pingInterval: Duration.Input }) =>
    Layer.sync(WebSockets, () => new KeepAliveWebSockets(Duration.toMillis(Duration.fromInputUnsafe(pingInterval))))
}
