import { createServer, type Server } from "node:http"

/**
 * The ceiling of the request-path benchmarks: a bare `node:http` server that answers every request with
 * `body`, as JSON, after reading the request's body. Nothing of ours and no framework: what Node alone
 * costs for the same exchange.
 */
export const bareServer = (body: string | Buffer): Server => {
  const bytes = Buffer.from(body)
  return createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json", "content-length": bytes.length })
      response.end(bytes)
    })
  })
}

/** Listens on a free port of 127.0.0.1 and prints `listening on URL`, as the gateway does: the benchmark waits for that line. */
export const listenOnLoopback = (server: Server): void => {
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    if (address === null || typeof address === "string") throw new Error(`unexpected address ${String(address)}`)
    console.log(`listening on http://127.0.0.1:${address.port}`)
  })
}
