import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { HttpServer, HttpServerRequest } from "effect/http"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { connect } from "node:net"
import { defaultGatewayOptions } from "../../src/GatewayOptions.ts"
import { BodiesReadFirst } from "../../src/http/transport/BodyFirst.ts"
import * as JsonBody from "../../src/http/body/JsonBody.ts"
import * as Server from "../../src/http/transport/Server.ts"
import { layerOptions } from "../../src/main.ts"
import { testRoute } from "../support/testRoute.ts"

/**
 * The way a request travels through the server (src/http/transport/Server.ts, BodyFirst.ts), seen on a raw
 * connection: its body read before the app runs (or after `100 Continue`), handlers that answer at once
 * and ones that wait, requests pipelined on one connection, and a client that goes away mid-body.
 */

const limit = 64

const body = Effect.map(JsonBody.read, Option.getOrNull)

/** The body, and whether the server read it before the app ran. */
const howRead = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const readFirst = (yield* BodiesReadFirst).of(request.source) !== undefined
  return { readFirst, body: yield* body }
})

/** How many requests reached the app on the counting route. */
let counted = 0

const routes = [
  ...testRoute("POST", "/api/v1/how-read", howRead),
  // A handler that waits, as one that asks a slow device does.
  ...testRoute("POST", "/api/v1/slow", Effect.andThen(Effect.sleep("30 millis"), body)),
  ...testRoute("POST", "/api/v1/now", body),
  ...testRoute("POST", "/api/v1/count", Effect.sync(() => ++counted)),
  ...testRoute("GET", "/api/v1/at-once", Effect.succeed("at once")),
  ...testRoute("GET", "/api/v1/later", Effect.as(Effect.sleep("30 millis"), "later"))
]

/** The Node server, for the test to see a connection close on the server's side. */
const nodeServer = createServer(Server.serverTimeouts)

const TestServer = Server.layer(routes, { ...layerOptions(defaultGatewayOptions).server, port: 0, maxBodyBytes: limit }, () => nodeServer)

const port = Effect.map(HttpServer.HttpServer, ({ address }) => (address._tag === "UnixPathAddress" ? 0 : address.port))

interface Response {
  readonly status: number
  readonly body: string
}

/** The responses in what the server sent, as far as they are whole (each has a Content-Length). */
const responsesIn = (received: string): ReadonlyArray<Response> => {
  const responses: Array<Response> = []
  let at = 0
  for (;;) {
    const headEnd = received.indexOf("\r\n\r\n", at)
    if (headEnd < 0) return responses
    const head = received.slice(at, headEnd)
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
    const end = headEnd + 4 + length
    if (Buffer.byteLength(received.slice(headEnd + 4), "latin1") < length) return responses
    responses.push({ status: Number(head.slice(9, 12)), body: received.slice(headEnd + 4, end) })
    at = end
  }
}

/**
 * Writes `pieces` on one fresh connection (each after the server's previous answer when `stepwise`, else
 * all at once) until `count` responses (interim ones included) are whole.
 */
const exchange = (pieces: ReadonlyArray<string>, count: number, stepwise = false) =>
  Effect.flatMap(port, (p) =>
    Effect.promise(() =>
      new Promise<ReadonlyArray<Response>>((resolve, reject) => {
        const socket = connect(p, "127.0.0.1")
        let received = ""
        let sent = 0
        socket.setTimeout(5_000, () => socket.destroy(new Error(`no whole answer; got ${JSON.stringify(received)}`)))
        socket.on("error", reject)
        socket.on("data", (chunk: Buffer) => {
          received += chunk.toString("latin1")
          const responses = responsesIn(received)
          if (responses.length >= count) {
            socket.destroy()
            resolve(responses)
          } else if (stepwise && sent < pieces.length) socket.write(pieces[sent++] ?? "")
        })
        if (stepwise) socket.write(pieces[sent++] ?? "")
        else socket.write(pieces.join(""))
      })
    ))

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`

const post = (path: string, body: string, extra = "") =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`

const json = (response: Response | undefined) => (response === undefined ? undefined : { status: response.status, body: JSON.parse(response.body) })

layer(TestServer, { excludeTestServices: true })("a request on its way to the app", (it) => {
  it.effect("has its body read before the app runs", () =>
    Effect.gen(function* () {
      const [answer] = yield* exchange([post("/api/v1/how-read", "[1,2]")], 1)
      expect(json(answer)).toEqual({ status: 200, body: { readFirst: true, body: [1, 2] } })
    }))

  it.effect("has its body read before the app runs after 100 Continue, when the client waits for it", () =>
    Effect.gen(function* () {
      const request = post("/api/v1/how-read", "[3]", "Expect: 100-continue\r\n")
      const [head, body] = [request.slice(0, request.length - 3), "[3]"]
      const [interim, answer] = yield* exchange([head, body], 2, true)
      expect(interim?.status).toBe(100)
      expect(json(answer)).toEqual({ status: 200, body: { readFirst: true, body: [3] } })
    }))

  it.effect("is refused unread, without 100 Continue, when it waits to send a body over the limit", () =>
    Effect.gen(function* () {
      const head = `POST /api/v1/how-read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${limit + 1}\r\nExpect: 100-continue\r\n\r\n`
      const [answer] = yield* exchange([head], 1)
      expect(answer?.status).toBe(413)
    }))

  it.effect("is answered in order when pipelined behind others, whether its handler answers at once or waits", () =>
    Effect.gen(function* () {
      const answers = yield* exchange([post("/api/v1/slow", "[\"slow\"]"), post("/api/v1/now", "[\"now\"]"), post("/api/v1/slow", "[2]")], 3)
      expect(answers.map(json)).toEqual([
        { status: 200, body: ["slow"] },
        { status: 200, body: ["now"] },
        { status: 200, body: [2] }
      ])
    }))

  it.effect("never reaches the app when its client goes away before the body is whole", () =>
    Effect.gen(function* () {
      const before = counted
      const p = yield* port
      yield* Effect.promise(() =>
        new Promise<void>((resolve) => {
          nodeServer.once("connection", (accepted) => accepted.once("close", () => resolve()))
          const socket = connect(p, "127.0.0.1", () => {
            socket.write(`POST /api/v1/count HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 20\r\n\r\n[1,`, () => socket.destroy())
          })
        })
      )
      // The server goes on answering, and only the whole request was counted.
      const [answer] = yield* exchange([post("/api/v1/count", "[]")], 1)
      expect(json(answer)).toEqual({ status: 200, body: before + 1 })
    }))

  it.effect("is answered within Node's request event when its handler completes at once, and later when it waits", () =>
    Effect.gen(function* () {
      // A listener added after the server's runs once the server's has returned.
      const answeredInEvent = new Map<string, boolean>()
      const listener = (request: IncomingMessage, response: ServerResponse) =>
        answeredInEvent.set(request.url ?? "", response.writableEnded)
      nodeServer.on("request", listener)
      const answers = yield* exchange([get("/api/v1/at-once"), get("/api/v1/later")], 2).pipe(
        Effect.ensuring(Effect.sync(() => nodeServer.off("request", listener)))
      )
      expect(answers.map(json)).toEqual([{ status: 200, body: "at once" }, { status: 200, body: "later" }])
      expect(Object.fromEntries(answeredInEvent)).toEqual({ "/api/v1/at-once": true, "/api/v1/later": false })
    }))
})
