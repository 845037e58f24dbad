import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { WebSocket } from "ws"

/**
 * The WebSocket connections the server accepts (the `ws` server under `@effect/platform-node` makes
 * them with this class). Each pings its peer every `pingMs` and is dropped when the previous ping got
 * no answer (wire.md §7). Each can also be found from its request, for what Effect's `Socket` does not
 * offer: knowing when a send has left the process, so that a client that stops reading is noticed
 * instead of growing the server's buffers.
 */
export const keepAliveWebSocket = (pingMs: number): typeof WebSocket =>
  class KeepAliveWebSocket extends WebSocket {
    // `ws` calls this once the handshake is done, before handing the connection out.
    setSocket(socket: Duplex, head: Buffer, options: unknown): void {
      setSocketOfWs.call(this, socket, head, options)
      connections.set(socket, this)
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
      this.once("close", () => clearInterval(timer))
    }
  }

const setSocketOfWs = (WebSocket.prototype as unknown as {
  readonly setSocket: (this: WebSocket, socket: Duplex, head: Buffer, options: unknown) => void
}).setSocket

const connections = new WeakMap<Duplex, WebSocket>()

/** The WebSocket an upgraded request became, once the handshake is done. */
export const webSocketOf = (request: IncomingMessage): WebSocket | undefined => connections.get(request.socket)
