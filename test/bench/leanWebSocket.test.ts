import type { AddressInfo, Socket } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { WebSocketServer, type WebSocket } from "ws"
import { openLeanWebSocket } from "../../bench/watch/LeanWebSocket.ts"
import { textFrame } from "../../bench/watch/WebSocketFrame.ts"

/**
 * The watch benchmark's load client (bench/watch/LeanWebSocket.ts) against a real `ws` server: its
 * handshake is accepted, its frames are read, it reads the server's text frames of every length
 * encoding, whole however TCP cuts them, and it answers pings.
 */

let server: WebSocketServer | undefined
afterEach(async () => {
  for (const client of server?.clients ?? []) client.terminate()
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)))
  server = undefined
})

/** A server, and the lean client connected to it with the messages it read. */
const connected = async () => {
  const listening = new WebSocketServer({ host: "127.0.0.1", port: 0 })
  server = listening
  await new Promise((resolve) => listening.once("listening", resolve))
  const peer = new Promise<{ socket: WebSocket; connection: Socket; authorization: string | undefined }>((resolve) =>
    listening.once("connection", (socket, request) =>
      resolve({ socket, connection: request.socket as Socket, authorization: request.headers.authorization }))
  )
  const messages: Array<string> = []
  const url = `ws://127.0.0.1:${(listening.address() as AddressInfo).port}/watch?vocabulary=b`
  const client = await openLeanWebSocket(url, { authorization: "Bearer t" }, (payload) => messages.push(payload.toString("utf8")))
  return { client, messages, ...(await peer) }
}

const eventually = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
}

describe("the benchmark's lean WebSocket client", () => {
  it("sends its headers and frames the server reads", async () => {
    const { client, socket, authorization } = await connected()
    expect(authorization).toBe("Bearer t")
    const received = new Promise((resolve) => socket.once("message", (data, binary) => resolve([String(data), binary])))
    client.send(JSON.stringify({ select: {} }))
    expect(await received).toEqual([`{"select":{}}`, false])
  })

  const texts = ["é", "x".repeat(125), "y".repeat(126), "z".repeat(65_536)]

  it("reads text frames of 7-, 16- and 64-bit lengths, several in one chunk", async () => {
    const { messages, socket, connection } = await connected()
    connection.cork()
    for (const text of texts) socket.send(text)
    connection.uncork()
    await eventually(() => messages.length === texts.length)
    expect(messages).toEqual(texts)
  })

  it("reads a frame whole however it is cut", async () => {
    const { messages, connection } = await connected()
    const bytes = Buffer.concat(texts.map((text) => textFrame(Buffer.from(text))))
    // Pieces of 1 to 7 bytes around the headers, then larger ones, each its own write a turn apart.
    for (let at = 0; at < bytes.length;) {
      const size = at < 300 ? 1 + (at % 7) : 4_096
      connection.write(bytes.subarray(at, at + size))
      at += size
      await new Promise((resolve) => setImmediate(resolve))
    }
    await eventually(() => messages.length === texts.length)
    expect(messages).toEqual(texts)
  })

  it("answers a ping with a pong of the same payload", async () => {
    const { socket } = await connected()
    const pong = new Promise((resolve) => socket.once("pong", (data) => resolve(String(data))))
    socket.ping("are you there")
    expect(await pong).toBe("are you there")
  })
})
