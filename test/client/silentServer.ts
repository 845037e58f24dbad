import { createServer, type Socket } from "node:net"

/** A server on loopback that accepts connections and never answers; it counts them, and those the client closed. */
export interface SilentServer {
  readonly url: string
  readonly accepted: () => number
  /** Resolves once every connection accepted so far was closed by the client. */
  readonly allClosed: () => Promise<void>
  readonly close: () => Promise<void>
}

export const silentServer = async (): Promise<SilentServer> => {
  const sockets = new Set<Socket>()
  const closings: Array<Promise<void>> = []
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on("error", () => undefined)
    // Read what comes (and drop it): a socket that is never read never hears its end.
    socket.resume()
    closings.push(new Promise((resolve) => socket.once("close", () => resolve())))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no port")
  return {
    url: `http://127.0.0.1:${address.port}`,
    accepted: () => sockets.size,
    allClosed: () => Promise.all(closings).then(() => undefined),
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}
