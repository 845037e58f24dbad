import { connect, createServer, type Socket } from "node:net"

/**
 * A TCP proxy on loopback to a port of 127.0.0.1, whose open connections can be cut silently: nothing
 * more passes either way, and neither end is closed or told, as when a network drops a path. Connections
 * made after the cut pass again.
 */
export interface CuttableProxy {
  readonly port: number
  /** Stops every connection open now from passing anything, without closing it. */
  readonly cut: () => void
  /** Closes every connection and the proxy. */
  readonly close: () => Promise<void>
}

export const startCuttableProxy = async (target: number): Promise<CuttableProxy> => {
  const open = new Set<readonly [Socket, Socket]>()
  const server = createServer((client) => {
    const upstream = connect(target, "127.0.0.1")
    const pair = [client, upstream] as const
    open.add(pair)
    client.pipe(upstream)
    upstream.pipe(client)
    const end = () => {
      open.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    for (const socket of pair) socket.on("error", end).on("close", end)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the proxy has no TCP address")
  return {
    port: address.port,
    cut: () => {
      for (const [client, upstream] of open) {
        client.unpipe(upstream)
        upstream.unpipe(client)
        client.pause()
        upstream.pause()
      }
    },
    close: async () => {
      for (const [client, upstream] of open) {
        client.destroy()
        upstream.destroy()
      }
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
