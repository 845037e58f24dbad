import { createServer, type ServerResponse } from "node:http"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { drainConnections } from "../../src/http/transport/ConnectionDrain.ts"

describe("drainConnections", () => {
  it("answers every request running on a connection when a stop begins, only the last with Connection: close, then closes it", async () => {
    const server = createServer()
    const drain = drainConnections(server)
    const waiting: Array<ServerResponse> = []
    server.on("request", (request, response: ServerResponse) => {
      drain.arrived(request, response)
      waiting.push(response)
    })
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    try {
      const socket = connect(port, "127.0.0.1")
      let received = ""
      socket.setEncoding("latin1").on("data", (chunk: string) => {
        received += chunk
      })
      const closed = new Promise<void>((done) => socket.on("close", () => done()))
      // Two requests pipelined, both running when the stop begins.
      socket.write("GET /one HTTP/1.1\r\nHost: gateway\r\n\r\nGET /two HTTP/1.1\r\nHost: gateway\r\n\r\n")
      while (waiting.length < 2) await new Promise((later) => setTimeout(later, 5))
      drain.stop()
      for (const [at, response] of waiting.entries()) response.end(`answer ${at}`)
      await closed

      // Each answer's head, then its body (Node gives both a Content-Length).
      const answers = received.split("HTTP/1.1 200 OK\r\n").slice(1).map((answer) => {
        const [head = "", body] = answer.split("\r\n\r\n")
        return [/(?:^|\r\n)connection: (\S+)/i.exec(head)?.[1], body]
      })
      expect(answers).toEqual([
        ["keep-alive", "answer 0"],
        ["close", "answer 1"]
      ])
    } finally {
      await new Promise((stopped) => server.close(stopped))
    }
  })
})
