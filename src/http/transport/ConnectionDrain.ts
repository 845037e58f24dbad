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
}

export const drainConnections = (server: Server): ConnectionDrain => {
  let stopping = false
  /** The responses still being produced, per connection. */
  const running = new Map<Socket, Set<ServerResponse>>()

  const closeIfIdle = (socket: Socket) => {
    if ((running.get(socket)?.size ?? 0) === 0) socket.destroy()
  }

  server.on("connection", (socket: Socket) => {
    running.set(socket, new Set())
    socket.once("close", () => running.delete(socket))
  })
  // An upgraded connection (the watch socket) is no longer HTTP: its own handler closes it at a stop.
  server.on("upgrade", (request: IncomingMessage) => running.delete(request.socket))
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    const responses = running.get(socket)
    if (responses === undefined) return
    if (stopping) {
      // Node closes a connection after a response with `Connection: close`, dropping the responses
      // queued behind it: only the last response of the connection may carry it.
      for (const earlier of responses) if (!earlier.headersSent) earlier.removeHeader("connection")
      response.setHeader("connection", "close")
    }
    responses.add(response)
    response.once("close", () => {
      responses.delete(response)
      if (stopping) closeIfIdle(socket)
    })
  })

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
    }
  }
}
