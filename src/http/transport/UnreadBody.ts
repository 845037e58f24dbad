import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * A body nobody reads: one refused before it was read (413, 404, 405), or the rest of a chunked one past
 * its route's limit. Node would read and discard all of it to serve the next request of the connection;
 * past `maxDrainBytes` the connection is closed instead, as the platform's handler did before the gateway
 * wrote its answers itself (RequestHandler).
 */

/** The most unread bytes of a body read and discarded, for its connection to serve the next request. */
const maxDrainBytes = 256 * 1024

/** How long the client has to read the answer after the server ends the connection, before it is cut. */
const closeGraceMs = 500

/** Whether the answer closes its connection: what the body declares that is still to come is more than is drained. */
export const closesConnection = (request: IncomingMessage): boolean =>
  !request.complete && Number(request.headers["content-length"] ?? 0) > maxDrainBytes

/** Ends the connection, then cuts it if the client holds it open: ending first lets the answer reach the client. */
const closeSocket = (request: IncomingMessage): void => {
  const socket = request.socket
  if (socket.destroyed) return
  socket.end()
  const timer = setTimeout(() => socket.destroy(), closeGraceMs)
  socket.once("close", () => clearTimeout(timer))
}

/** Once `response` is sent, what is left of the request's body is drained (counted: Node discards it), up to `maxDrainBytes`. */
export const drainAfter = (request: IncomingMessage, response: ServerResponse): void => {
  response.prependListener("finish", () => {
    if (request.complete || request.destroyed) return
    let bytes = 0
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes <= maxDrainBytes) return
      request.off("data", onData)
      request.pause()
      closeSocket(request)
    }
    request.on("data", onData)
    request.resume()
  })
}
