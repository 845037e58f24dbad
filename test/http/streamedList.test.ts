import { createServer, type Server } from "node:http"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { piecesAnswer } from "../../src/http/routing/PiecesAnswer.ts"
import { writeAnswer } from "../../src/http/transport/NodeAnswer.ts"
import { jsonListText } from "../../src/vocabulary/common/JsonListText.ts"
import { eventuallyAsync, pause } from "../support/eventually.ts"
import { send } from "../support/httpRequest.ts"
import { rawAnswer } from "../support/rawAnswer.ts"

/**
 * A long list's JSON streamed as its pieces are made (src/http/transport/StreamedText.ts), over real
 * loopback sockets to a Node server that answers every request as the gateway's routes answer a list:
 * the bytes are those of the list written whole, sent chunked; HEAD makes nothing more; a client that
 * leaves mid-answer stops the making and the server answers the next; a reader that reads nothing holds
 * the server to what the sockets take, not the whole list.
 */

interface Item {
  readonly id: number
  readonly text: string
}

/** Some 8 MB of JSON, with text outside ASCII (its UTF-8 is longer than the text), past what loopback's sockets take unread. */
const items: ReadonlyArray<Item> = Array.from({ length: 16_000 }, (_, id) => ({
  id,
  // One item longer than a batch of the streamed answer (64 KiB).
  text: id === 5_000 ? "ü".repeat(70_000) : `${"é".repeat(id % 7)}${"x".repeat(500)}`
}))
const whole = Buffer.from(JSON.stringify(items.map((item) => ({ item }))))

/** How many items the server has written, over every answer. */
let made = 0
const write = (item: Item) => {
  made++
  return { item }
}

/** A writer that fails on an item past the first MiB of the text, as a bug would. */
const unwritable = (item: Item) => {
  if (item.id === items.length - 1) throw new Error("an item no shape can write")
  return write(item)
}

let server: Server
let port = 0
beforeAll(async () => {
  server = createServer((request, response) => {
    const listed = request.url === "/short" ? items.slice(0, 2) : items
    const answer = piecesAnswer(jsonListText(listed, request.url === "/broken" ? unwritable : write), { contentType: "application/json" })
    writeAnswer(request, response, answer)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  port = typeof address === "object" && address !== null ? address.port : 0
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const url = (path = "/") => `http://127.0.0.1:${port}${path}`

/** The raw answer to `request` on a connection of its own. */
const raw = (request: string) => rawAnswer(port, request)

/** A chunked body's content, and what follows its last chunk. */
const dechunked = (body: Buffer): { readonly content: Buffer; readonly after: Buffer } => {
  const chunks: Array<Buffer> = []
  let at = 0
  for (;;) {
    const lineEnd = body.indexOf("\r\n", at)
    const size = Number.parseInt(body.subarray(at, lineEnd).toString("latin1"), 16)
    at = lineEnd + 2
    if (size === 0) return { content: Buffer.concat(chunks), after: body.subarray(at + 2) }
    chunks.push(body.subarray(at, at + size))
    at += size + 2
  }
}

describe("a long list's answer, streamed", () => {
  it("is the UTF-8 of the list written whole, sent chunked", async () => {
    const reply = await send(url())
    expect(reply.status).toBe(200)
    expect(reply.headers["content-type"]).toBe("application/json")
    expect(reply.headers["transfer-encoding"]).toBe("chunked")
    expect(reply.headers["content-length"]).toBeUndefined()
    expect(reply.bytes.equals(whole)).toBe(true)
  })

  it("is sent whole up to the connection's close to an HTTP/1.0 client, which knows no chunks", async () => {
    const { head, body } = await raw("GET / HTTP/1.0\r\n\r\n")
    expect(head).toMatch(/^HTTP\/1\.1 200 /)
    expect(head).not.toMatch(/transfer-encoding/i)
    expect(body.equals(whole)).toBe(true)
  })

  it("keeps a short list's answer as its bytes, with their length", async () => {
    const reply = await send(url("/short"))
    expect(reply.headers["content-length"]).toBe(String(reply.bytes.length))
    expect(reply.body).toBe(JSON.stringify(items.slice(0, 2).map((item) => ({ item }))))
  })

  it("makes nothing past the first pieces for HEAD, and sends no body", async () => {
    const before = made
    const reply = await send(url(), { method: "HEAD" })
    expect(reply.status).toBe(200)
    expect(reply.bytes.length).toBe(0)
    // The answer is known to be long once its first MiB is made; the rest is never made.
    expect(made - before).toBeLessThan(items.length / 2)
  })

  it("answers a request pipelined behind it once it is sent whole", async () => {
    const { head, body } = await raw("GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /short HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
    expect(head).toMatch(/transfer-encoding: chunked/i)
    const { content, after } = dechunked(body)
    expect(content.equals(whole)).toBe(true)
    expect(after.toString("latin1")).toMatch(/^HTTP\/1\.1 200 /)
    const short = Buffer.from(JSON.stringify(items.slice(0, 2).map((item) => ({ item }))))
    expect(after.subarray(after.length - short.length).equals(short)).toBe(true)
  })

  it("holds a reader that reads nothing to what the sockets take, then sends it the rest", async () => {
    const before = made
    const received: Array<Buffer> = []
    const socket = connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
    socket.pause()
    // Once the server waits for the sockets to drain, it makes no more.
    const held = await eventuallyAsync(async () => {
      const seen = made
      await pause(100)
      return made - before > 0 && made === seen ? made - before : undefined
    }, (count) => count !== undefined)
    expect(held).toBeLessThan(items.length)
    const ended = new Promise<void>((resolve) => socket.on("end", resolve))
    socket.on("data", (chunk: Buffer) => received.push(chunk))
    socket.resume()
    await ended
    socket.destroy()
    expect(made - before).toBe(items.length)
    const answer = Buffer.concat(received)
    expect(answer.subarray(answer.indexOf("\r\n\r\n") + 4).toString("latin1")).toContain(`{"item":{"id":${items.length - 1},`)
  })

  it("stops making pieces for a client that leaves mid-answer, and answers the next client", async () => {
    const before = made
    await new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
      socket.once("data", () => {
        socket.destroy()
        resolve()
      })
    })
    await pause(200)
    expect(made - before).toBeLessThan(items.length)
    const reply = await send(url())
    expect(reply.bytes.equals(whole)).toBe(true)
  })

  it("ends the connection when a piece past the first MiB cannot be made, and answers the next client", async () => {
    const received = await new Promise<Buffer>((resolve) => {
      const chunks: Array<Buffer> = []
      const socket = connect(port, "127.0.0.1", () => socket.write("GET /broken HTTP/1.1\r\nHost: a\r\n\r\n"))
      socket.on("data", (chunk: Buffer) => chunks.push(chunk))
      socket.on("error", () => {})
      socket.on("close", () => resolve(Buffer.concat(chunks)))
    })
    expect(received.toString("latin1")).toMatch(/^HTTP\/1\.1 200 /)
    expect(received.length).toBeLessThan(whole.length)
    const reply = await send(url())
    expect(reply.bytes.equals(whole)).toBe(true)
  })
})
