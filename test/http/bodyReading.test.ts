import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { sharedGateway } from "../support/hookedGateway.ts"
import { home } from "./vocabularyB/homes.ts"

/**
 * How a request body reaches the handler (src/http/transport/BodyFirst.ts): read whole before the app runs, for
 * a client that waits for `100 Continue` once the server has said so. Either way the answer is the one
 * the whole body asks for.
 */

const write = JSON.stringify({ select: { id: "setter:porch-light-on@b" }, value: { OnOff: "On" } })
const written = { "setter:porch-light-on@b": null }

/** The final response in what the server sent, once it is whole (its Content-Length of body is in). */
const finalResponse = (received: string): { readonly status: number; readonly body: string } | undefined => {
  const start = received.lastIndexOf("HTTP/1.1 ")
  const headEnd = received.indexOf("\r\n\r\n", start)
  if (start < 0 || headEnd < 0) return undefined
  const head = received.slice(start, headEnd)
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? -1)
  const body = received.slice(headEnd + 4)
  return length >= 0 && Buffer.byteLength(body, "latin1") === length ? { status: Number(head.slice(9, 12)), body } : undefined
}

/**
 * Sends `head` on a fresh connection, then `pieces` 30 ms apart, after the server first said something
 * when `afterServerSpeaks`. Answers everything the server sent, once its final response is whole.
 */
const exchange = (port: number, head: string, pieces: ReadonlyArray<string>, afterServerSpeaks: boolean) =>
  new Promise<{ readonly received: string; readonly status: number; readonly body: string }>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    let received = ""
    const sendPieces = () => {
      for (const [i, piece] of pieces.entries()) setTimeout(() => socket.write(piece), 30 * (i + 1))
    }
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no whole answer; got ${JSON.stringify(received)}`)))
    socket.on("error", reject)
    socket.on("data", (chunk: Buffer) => {
      if (afterServerSpeaks && received === "") sendPieces()
      received += chunk.toString("latin1")
      const response = finalResponse(received)
      if (response !== undefined && response.status !== 100) {
        socket.destroy()
        resolve({ received, ...response })
      }
    })
    socket.write(head)
    if (!afterServerSpeaks) sendPieces()
  })

describe("a request body", () => {
  const { gateway } = sharedGateway(home)
  const port = () => Number(new URL(gateway().baseUrl).port)
  const head = (extra: string) =>
    `PUT /api/v1/channels/set HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${gateway().token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(write)}\r\n${extra}\r\n`

  it("is read whole when it arrives in pieces, after the headers and a moment apart", async () => {
    const answer = await exchange(port(), head(""), [write.slice(0, 10), write.slice(10, 30), write.slice(30)], false)
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 200, body: written })
  })

  it("is read after 100 Continue when the client waits for it", async () => {
    const answer = await exchange(port(), head("Expect: 100-continue\r\n"), [write], true)
    expect(answer.received.startsWith("HTTP/1.1 100 Continue\r\n\r\n")).toBe(true)
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 200, body: written })
  })
})
