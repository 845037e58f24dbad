import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { gatewayForSuite } from "../support/gatewayOverHttp.ts"
import { home } from "./vocabularyB/homes.ts"

/**
 * A request pipelined behind one whose body no route reads (404, 405: src/http/transport/UnreadBody.ts),
 * on one raw connection to a whole gateway: the unread body is discarded after the first answer, so
 * Node's parser reaches the second request, which is answered on the same connection.
 */

const gateway = gatewayForSuite(home)

const health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

/** The end of the answer to `health`, the last one awaited. */
const healthBody = JSON.stringify({ status: "ok" })

/** A request with a 100-byte body. */
const withBody = (method: string, path: string) => ({
  head: `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
  body: `${" ".repeat(98)}{}`
})

/** The statuses of the answers in `received`, in order (an answer's body need not end with a newline). */
const statuses = (received: string) => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]))

/**
 * The statuses the gateway answers on one connection: `first` is written at once, then `second` once
 * the first answer has come; until the answer to `health` has come, the server closed, or 5 s passed.
 */
const exchange = (first: string, second = "") =>
  new Promise<ReadonlyArray<number>>((resolve) => {
    const socket = connect(Number(new URL(gateway().baseUrl).port), "127.0.0.1")
    let received = ""
    let secondSent = second === ""
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve(statuses(received))
    }
    const timer = setTimeout(done, 5_000)
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1")
      if (!secondSent) {
        secondSent = true
        socket.write(second)
      }
      if (received.endsWith(healthBody)) done()
    })
    socket.once("close", done)
    socket.on("connect", () => socket.write(first))
  })

describe("a request pipelined behind a body no route reads", () => {
  it("is answered behind a 404", async () => {
    const { head, body } = withBody("POST", "/nope")
    expect(await exchange(head + body + health)).toEqual([404, 200])
  })

  it("is answered behind a 405", async () => {
    const { head, body } = withBody("POST", "/health")
    expect(await exchange(head + body + health)).toEqual([405, 200])
  })

  it("is answered behind a 404 sent before its body came", async () => {
    const { head, body } = withBody("POST", "/nope")
    expect(await exchange(head, body + health)).toEqual([404, 200])
  })
})
