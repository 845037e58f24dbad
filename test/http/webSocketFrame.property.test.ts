import type { AddressInfo } from "node:net"
import * as fc from "fast-check"
import { codePoint } from "../arbitraries/codePoint.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket, { WebSocketServer } from "ws"
import { textFrame } from "../../bench/watch/WebSocketFrame.ts"

/**
 * The watch benchmark's lean client is tested with frames built by `textFrame` (bench/watch/WebSocketFrame.ts):
 * one written to the connection as it is must reach a real `ws` client as that text message, whatever
 * its length (the three length encodings of RFC 6455 §5.2 meet at 126 and 65,536 bytes) and whatever
 * its characters, one frame after another on one connection.
 */

let server: WebSocketServer
let client: WebSocket
let connection: import("node:net").Socket | undefined
const messages: Array<{ readonly text: string; readonly binary: boolean }> = []
let arrived: (() => void) | undefined
/** Rejects once the client closes: it does so at the first frame it cannot read. */
let closed: Promise<never>

beforeAll(async () => {
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 })
  await new Promise<void>((resolve) => server.once("listening", resolve))
  const accepted = new Promise<void>((resolve) =>
    server.once("connection", (_socket, request) => {
      connection = request.socket as import("node:net").Socket
      resolve()
    })
  )
  client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`)
  closed = new Promise((_, reject) =>
    client.once("close", (code, reason) => reject(new Error(`the client closed the connection: ${code} ${String(reason)}`)))
  )
  // Seen by the test through `closed`.
  closed.catch(() => {})
  client.on("error", () => {})
  client.on("message", (data, binary) => {
    messages.push({ text: String(data), binary })
    arrived?.()
  })
  await Promise.all([accepted, new Promise((resolve) => client.once("open", resolve))])
})

afterAll(async () => {
  client.terminate()
  await new Promise((resolve) => server.close(resolve))
})

/** Writes each text as one frame, in one write, and answers the messages the client read (within 2 s). */
const roundTrip = async (texts: ReadonlyArray<string>) => {
  messages.length = 0
  const done = new Promise<void>((resolve) => {
    arrived = () => messages.length === texts.length && resolve()
  })
  connection?.write(Buffer.concat(texts.map((text) => textFrame(Buffer.from(text)))))
  // A wrong length can leave the client waiting for bytes that never come.
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 2_000)
  })
  await Promise.race([done, closed, late])
  clearTimeout(timer)
  return [...messages]
}

/** Texts whose UTF-8 length is on either side of each boundary of the length encodings. */
const atBoundary = fc.constantFrom(0, 1, 125, 126, 127, 65_535, 65_536, 65_537).chain((bytes) =>
  fc.constantFrom("x", "é").map((unit) => unit.repeat(Math.floor(bytes / Buffer.byteLength(unit))))
)

const text = fc.oneof(fc.string({ unit: codePoint, maxLength: 300 }), atBoundary)

describe("a frame written by hand", () => {
  it("is read by a ws client as the same text message, one per frame", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 4 }), async (texts) => {
        const received = await roundTrip(texts)
        expect(received).toEqual(texts.map((text) => ({ text, binary: false })))
      }),
      { numRuns: 60 }
    )
  })

  it("declares its length in 7, 16 or 64 bits", () => {
    expect([...textFrame(Buffer.alloc(125)).subarray(0, 2)]).toEqual([0x81, 125])
    expect([...textFrame(Buffer.alloc(126)).subarray(0, 4)]).toEqual([0x81, 126, 0, 126])
    expect([...textFrame(Buffer.alloc(65_536)).subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])
  })
})
