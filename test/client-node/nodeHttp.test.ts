import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import * as Effect from "effect/Effect"
import { HttpBody, HttpClientRequest } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nodeHttpClient } from "../../src/client-node/NodeHttp.ts"

/**
 * The client's own HTTP in Node (src/client-node/NodeHttp.ts), which lets `@home-gateway/client/node`
 * need nothing beside effect: it sends what `fetch` will not (a GET with a body, vocabulary A's reads
 * with selectors) and answers as Effect's HTTP client does, a refused connection with its cause.
 */

interface Received {
  readonly method: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

let server: Server
let url = ""
const received: Array<Received> = []

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk))
    request.on("end", () => {
      received.push({ method: request.method ?? "", headers: request.headers, body })
      if (request.url === "/nothing") return response.writeHead(204).end()
      response.writeHead(200, { "content-type": "application/json", "x-answer": "yes" }).end(JSON.stringify({ echoed: body }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no port")
  url = `http://127.0.0.1:${address.port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe("the client's HTTP in Node", () => {
  it("sends a GET with a JSON body, and reads the answer's status, headers and body", async () => {
    const request = HttpClientRequest.get(`${url}/read`, { body: HttpBody.text(`{"selectors":[]}`, "application/json") })
    const answer = await Effect.runPromise(Effect.flatMap(nodeHttpClient.execute(request), (response) =>
      Effect.map(response.text, (text) => ({ status: response.status, header: response.headers["x-answer"], text }))))
    expect(answer).toEqual({ status: 200, header: "yes", text: JSON.stringify({ echoed: `{"selectors":[]}` }) })
    expect(received.at(-1)).toMatchObject({ method: "GET", body: `{"selectors":[]}`, headers: { "content-type": "application/json" } })
  })

  it("reads an answer without a body as empty text", async () => {
    const text = await Effect.runPromise(Effect.flatMap(nodeHttpClient.execute(HttpClientRequest.get(`${url}/nothing`)), (response) => response.text))
    expect(text).toBe("")
  })

  it("fails a refused connection with a transport error that keeps its cause", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const address = closed.address()
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    if (address === null || typeof address === "string") throw new Error("no port")
    const error = await Effect.runPromise(Effect.flip(nodeHttpClient.execute(HttpClientRequest.get(`http://127.0.0.1:${address.port}/`))))
    expect(error.reason._tag).toBe("TransportError")
    expect(error.reason.cause).toMatchObject({ code: "ECONNREFUSED" })
  })
})
