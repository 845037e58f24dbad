import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { connect } from "node:net"
import { defaultGatewayOptions } from "../../src/GatewayOptions.ts"
import * as JsonBody from "../../src/http/body/JsonBody.ts"
import * as Server from "../../src/http/transport/Server.ts"
import { layerOptions } from "../../src/main.ts"
import { testRoute } from "../support/testRoute.ts"

/**
 * A body nobody reads (src/http/transport/UnreadBody.ts), seen on a raw connection: the answer comes
 * without waiting for it, and the connection is closed after the answer when the client declares more
 * than 256 KiB, or goes on sending a chunked body 256 KiB past its route's limit.
 */

const limit = 64

const TestServer = Server.layer(
  testRoute("GET", "/health", Effect.succeed("ok")).concat(testRoute("POST", "/api/v1/echo", JsonBody.read)),
  { ...layerOptions(defaultGatewayOptions).server, port: 0, maxBodyBytes: limit }
)

const port = Effect.map(HttpServer.HttpServer, ({ address }) => (address._tag === "UnixPathAddress" ? 0 : address.port))

/** What the server sent on one connection until it closed it (or 5 s passed), after `send` wrote on it. */
const untilClosed = (send: (write: (text: string) => boolean) => void) =>
  Effect.flatMap(port, (p) =>
    Effect.promise(() =>
      new Promise<{ readonly received: string; readonly closedByServer: boolean }>((resolve) => {
        const socket = connect(p, "127.0.0.1")
        let received = ""
        const timer = setTimeout(() => {
          socket.destroy()
          resolve({ received, closedByServer: false })
        }, 5_000)
        socket.on("data", (chunk: Buffer) => {
          received += chunk.toString("latin1")
        })
        // A write the server no longer reads may fail once it has closed: the close is what is awaited.
        socket.on("error", () => {})
        socket.on("close", () => {
          clearTimeout(timer)
          resolve({ received, closedByServer: true })
        })
        socket.on("connect", () => send((text) => socket.write(text)))
      })
    ))

const statuses = (received: string) => [...received.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]))

layer(TestServer, { excludeTestServices: true })("a body nobody reads", (it) => {
  it.effect("closes its connection after the answer when it declares more than 256 KiB", () =>
    Effect.gen(function* () {
      const { received, closedByServer } = yield* untilClosed((write) => {
        write(`POST /api/v1/nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${1024 * 1024}\r\n\r\n[1,`)
      })
      expect(statuses(received)).toEqual([404])
      expect(received.toLowerCase()).toContain("connection: close")
      expect(closedByServer).toBe(true)
    }))

  it.effect("closes its connection once a chunked body goes on 256 KiB past its route's limit", () =>
    Effect.gen(function* () {
      const chunk = "x".repeat(16 * 1024)
      const { received, closedByServer } = yield* untilClosed((write) => {
        write("POST /api/v1/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        // Never ended: only the server's close ends the exchange.
        for (let i = 0; i < 24; i++) write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
      })
      expect(statuses(received)).toEqual([413])
      expect(closedByServer).toBe(true)
    }))
})
