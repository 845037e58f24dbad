import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Socket } from "node:net"

/**
 * What a stopping server does with its connections (docs/reference.md §10, 503 "shutting down"): requests
 * already running are answered, with `Connection: close`; a connection with nothing running (idle
 * between keep-alive requests, or opened and silent) is closed at once; a request that arrives anyway
 * is refused by the app (see `stopping`). So the server closes as soon as its last running request is
 * answered, not after a keep-alive or graceful-shutdown timer.
 */
export interface ConnectionDrain {
  /** Whether a stop has begun. */
  readonly stopping: () => boolean
  /** Begins the stop. */
  readonly stop: () => void
  /**
   * Tells the drain of a request as it arrives, before its body is read. Called by the server's one
   * `request` listener (BodyFirst) rather than from a listener of its own: with two, Node copies the list
   * of listeners on every request.
   */
  readonly arrived: (request: IncomingMessage, response: ServerResponse) => void
}

export const drainConnections = (server: Server): ConnectionDrain => {
  let stopping = false
  /**
   * Each open connection's last response (`undefined` before its first). Its responses are written in the
   * order their requests came, so the connection has nothing running once its last is finished; only a stop
   * needs to hear when that is, so a response gets a listener only then, not each one as it arrives.
   */
  const running = new Map<Socket, ServerResponse | undefined>()

  /** A connection's last response when the stop began, or one that arrived after: closes it once it is sent. */
  function closed(this: ServerResponse): void {
    const socket = this.req.socket
    if (running.get(socket) === this) socket.destroy()
  }

  server.on("connection", (socket: Socket) => {
    running.set(socket, undefined)
    socket.once("close", () => running.delete(socket))
  })
  // An upgraded connection (the watch socket) is no longer HTTP: its own handler closes it at a stop.
  server.on("upgrade", (request: IncomingMessage) => running.delete(request.socket))

  return {
    stopping: () => stopping,
    stop: () => {
      if (stopping) return
      stopping = true
      for (const [socket, last] of running) {
        if (last === undefined || last.writableFinished) {
          socket.destroy()
          continue
        }
        // Merged by Node into the headers the app writes later.
        if (!last.headersSent) last.setHeader("connection", "close")
        last.on("close", closed)
      }
    },
    arrived: (request, response) => {
      const socket = request.socket
      if (!running.has(socket)) return
      if (stopping) {
        // Node closes a connection after a response with `Connection: close`, dropping the responses
        // queued behind it: only the last response of the connection may carry it.
        const earlier = running.get(socket)
        if (earlier !== undefined && !earlier.headersSent) earlier.removeHeader("connection")
        response.setHeader("connection", "close")
        response.on("close", closed)
      }
      running.set(socket, response)
    }
  }
}
