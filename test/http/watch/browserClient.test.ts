import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { watchProtocol } from "../../../src/api/Watching.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { celsius, lamp, off, on, temperature, watchHome, writeB } from "./watchHome.ts"

/**
 * `ws` writes every frame of a watch socket (src/http/transport/WatchSocket.ts), each event's payload encoded once
 * for all the sockets it goes to: a browser's WebSocket (Node's own, built into Node 24, is one) and a
 * `ws` client watching the same channels must read the same text messages, in the same order.
 */

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(watchHome)
})
afterAll(() => gateway.close())

interface Received {
  readonly texts: Array<string>
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>
  readonly send: (text: string) => void
  readonly close: () => void
}

/** Resolves once `received` holds `n` messages. */
const messages = async (received: Received, n: number) => {
  while (received.texts.length < n) await new Promise((resolve) => setTimeout(resolve, 10))
  return received.texts.slice(0, n)
}

/** Resolves once `received` holds a message that contains `part`, with every message up to it. */
const messagesUntil = async (received: Received, part: string) => {
  let end = -1
  while ((end = received.texts.findIndex((text) => text.includes(part))) < 0) await new Promise((resolve) => setTimeout(resolve, 10))
  return received.texts.slice(0, end + 1)
}

const watchUrl = () => `${gateway.baseUrl.replace(/^http/, "ws")}/api/v1/channels/watch`

/** A browser's client, as the dashboard's: the token offered as a subprotocol, since it cannot send headers. */
const openBrowserLike = async (): Promise<Received> => {
  const socket = new globalThis.WebSocket(watchUrl(), [watchProtocol, `bearer.${gateway.token}`])
  const texts: Array<string> = []
  socket.addEventListener("message", (event) => {
    // A binary frame would arrive as a Blob: only text is expected.
    texts.push(typeof event.data === "string" ? event.data : `binary: ${String(event.data)}`)
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason }))
  )
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => (socket.protocol === watchProtocol ? resolve() : reject(new Error(`answered the subprotocol "${socket.protocol}"`))), { once: true })
    socket.addEventListener("error", () => reject(new Error("the browser-like client could not connect")), { once: true })
  })
  return { texts, closed, send: (text) => socket.send(text), close: () => socket.close() }
}

const openWs = async (): Promise<Received> => {
  const socket = new WebSocket(watchUrl(), { headers: { authorization: `Bearer ${gateway.token}` } })
  const texts: Array<string> = []
  socket.on("message", (data, isBinary) => {
    texts.push(isBinary ? `binary: ${String(data)}` : String(data))
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString("utf8") }))
  )
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve())
    socket.once("error", reject)
  })
  return { texts, closed, send: (text) => socket.send(text), close: () => socket.close() }
}

describe("the watch socket read by a browser's WebSocket and by ws", () => {
  it("sends both the same text frames: answers, announcements and values, one at a time and in batches", async () => {
    const clients = [await openBrowserLike(), await openWs()]
    for (const client of clients) client.send("{")
    for (const client of clients) client.send(JSON.stringify([{ select: { id: lamp } }, { select: { id: temperature } }]))
    // The answer to the malformed frame, then the two announcements.
    const opening = await Promise.all(clients.map((client) => messages(client, 3)))
    expect(JSON.parse(opening[0]?.[0] ?? "null")).toEqual({ Error: expect.stringContaining("invalid JSON") })
    // Values written back to back: some leave together, in one write per socket.
    const writes = [on, off, on, off, on]
    await Promise.all(writes.map((value) => writeB(gateway.call, lamp, value)))
    await writeB(gateway.call, temperature, celsius(21.5))
    const all = await Promise.all(clients.map((client) => messagesUntil(client, "21.5")))
    expect(all[0]).toEqual(all[1])
    expect(all[0]?.length).toBeGreaterThan(4)
    expect(all[0]?.every((text) => !text.startsWith("binary"))).toBe(true)
    for (const client of clients) client.close()
    expect(await Promise.all(clients.map((client) => client.closed.then(({ code }) => code)))).toEqual([1005, 1005])
  })
})
