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
  /** The responses still being produced, per connection. */
  const running = new Map<Socket, Set<ServerResponse>>()

  const closeIfIdle = (socket: Socket) => {
    if ((running.get(socket)?.size ?? 0) === 0) socket.destroy()
  }

  // One listener for every response, which finds its connection from its request: a listener made per
  // response (a closure, or `once`'s wrapper) was the costliest step the gateway adds to a request.
  function closed(this: ServerResponse): void {
    const socket = this.req.socket
    running.get(socket)?.delete(this)
    if (stopping) closeIfIdle(socket)
  }

  server.on("connection", (socket: Socket) => {
    running.set(socket, new Set())
    socket.once("close", () => running.delete(socket))
  })
  // An upgraded connection (the watch socket) is no longer HTTP: its own handler closes it at a stop.
  server.on("upgrade", (request: IncomingMessage) => running.delete(request.socket))

  return {
    stopping: () => stopping,
    stop: () => {
      if (stopping) return
      stopping = true
      for (const [socket, responses] of running) {
        // Merged by Node into the headers the app writes later.
        for (const response of responses) if (!response.headersSent) response.setHeader("connection", "close")
        closeIfIdle(socket)
      }
    },
    arrived: (request, response) => {
      const responses = running.get(request.socket)
      if (responses === undefined) return
      if (stopping) {
        // Node closes a connection after a response with `Connection: close`, dropping the responses
        // queued behind it: only the last response of the connection may carry it.
        for (const earlier of responses) if (!earlier.headersSent) earlier.removeHeader("connection")
        response.setHeader("connection", "close")
      }
      responses.add(response)
      response.on("close", closed)
    }
  }
}
