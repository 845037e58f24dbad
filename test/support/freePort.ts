import { createServer } from "node:net"

/** A TCP port free right now on loopback. Free now, not later: start servers with `onFreePort`. */
export const freePort = (): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

/** Node's code and mosquitto's words for a port another process holds. */
const portTaken = /EADDRINUSE|address already in use/i

/**
 * Starts a server that must be told its port (one that cannot listen on port 0 and say which port it
 * got) on a port free a moment ago; if another process took that port in between, on another.
 */
export const onFreePort = async <A>(start: (port: number) => Promise<A>, attempts = 5): Promise<A> => {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    try {
      return await start(port)
    } catch (error) {
      if (attempt >= attempts || !portTaken.test(String(error))) throw error
    }
  }
}
