import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultGatewayOptions } from "../../../src/GatewayOptions.ts"
import { eventuallyAsync } from "../../support/eventually.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { openWatch } from "../../support/openWatch.ts"
import { lamp, off, on, smoke, temperature, watchHome, writeA, writeB } from "./watchHome.ts"

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(watchHome)
})
afterAll(() => gateway.close())

const value = (from: string, v: unknown) => ({ Value: { from, value: v } })

/** TCP connections open in this process: the gateway's ends and the test clients' ends. */
const tcpConnections = () => process.getActiveResourcesInfo().filter((resource) => resource === "TCPSocketWrap").length

/** What the gateway holds for its sockets: watches (each with its queue), running fibers, connections. */
const held = async () => ({ watches: await gateway.liveWatches(), fibers: gateway.liveFibers(), connections: tcpConnections() })

/** Waits until `check` holds, asking again on each turn (a stuck test fails by its timeout). */
const eventually = async (check: () => Promise<boolean>) => {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10))
}

describe("the watch socket", () => {
  it("answers a plain GET with 426 and a readable JSON string, and a bad vocabulary with 400", async () => {
    const plain = await gateway.call("GET", "/api/v1/channels/watch")
    expect(plain.status).toBe(426)
    expect(plain.json).toEqual(expect.stringContaining("WebSocket"))
    expect(plain.headers["upgrade"]).toBe("websocket")
    const badVocabulary = await send(`${gateway.baseUrl}/api/v1/channels/watch?vocabulary=c`, {
      headers: {
        authorization: `Bearer ${gateway.token}`,
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ=="
      }
    })
    expect(badVocabulary.status).toBe(400)
    expect(JSON.parse(badVocabulary.body)).toEqual(expect.stringContaining("query.vocabulary"))
  })

  it("answers a malformed frame with an Error and keeps the registration", async () => {
    const client = await openWatch(gateway)
    client.send("{")
    expect(await client.next()).toEqual({ Error: expect.stringContaining("invalid JSON") })
    client.send([{ select: { id: lamp } }])
    expect(await client.next()).toEqual({ GetterAdded: lamp })
    client.send([{ select: { id: 42 } }])
    expect(await client.next()).toEqual({ Error: expect.stringContaining("body[0].select.id") })
    // Once B, the socket reads every frame as B: an A frame is malformed here.
    client.send([{ source: { id: { Exactly: temperature } } }])
    expect(await client.next()).toEqual({ Error: expect.stringContaining("body[0]") })
    await writeB(gateway.call, lamp, on)
    expect(await client.next()).toEqual(value(lamp, on))
    await client.close()
  })

  it("replaces a registration with no lost or repeated event for the channels in both", async () => {
    const client = await openWatch(gateway)
    const first = [{ select: [{ id: lamp }, { id: temperature }] }]
    const second = [{ select: { id: lamp } }, { select: { id: smoke }, range: { Eq: on } }]
    client.send(first)
    expect(await client.collect(2)).toEqual([{ GetterAdded: lamp }, { GetterAdded: temperature }])
    const written: Array<unknown> = []
    for (let i = 0; i < 20; i++) {
      client.send(i % 2 === 0 ? second : first)
      // The lamp is On from the test above: a value is an event only when it changes.
      const v = i % 2 === 0 ? off : on
      written.push(value(lamp, v))
      await (i % 3 === 0 ? writeA : writeB)(gateway.call, lamp, v)
    }
    client.send(first)
    // The last replacement leaves the smoke sensor; after it, one more value marks the end.
    await writeB(gateway.call, temperature, { Temperature: { C: 1 } })
    const received: Array<unknown> = []
    for (;;) {
      const frame = await client.next()
      if (JSON.stringify(frame) === JSON.stringify(value(temperature, { Temperature: { C: 1 } }))) break
      received.push(frame)
    }
    expect(received.filter((f) => JSON.stringify(f).includes(lamp))).toEqual(written)
    const topology = received.filter((f) => !JSON.stringify(f).includes("Value"))
    // Each swap adds and removes only the channels not in both, in id order.
    const toSecond = [{ GetterAdded: smoke }, { GetterRemoved: temperature }]
    const toFirst = [{ GetterRemoved: smoke }, { GetterAdded: temperature }]
    expect(topology).toEqual(Array.from({ length: 10 }, () => [...toSecond, ...toFirst]).flat())
    await client.close()
  })

  it("serves several sockets at once, each in its own vocabulary", async () => {
    const a = await openWatch(gateway, "vocabulary=a")
    const b = await openWatch(gateway)
    const b2 = await openWatch(gateway)
    a.send([{ source: { id: { Exactly: temperature } }, should_watch_values: true }])
    b.send({ select: { id: temperature } })
    b2.send({ select: { id: temperature }, range: { Geq: { Temperature: { C: 30 } } } })
    expect(await b.next()).toEqual({ GetterAdded: temperature })
    expect(await b2.next()).toEqual({ GetterAdded: temperature })
    await writeB(gateway.call, temperature, { Temperature: { C: 31 } })
    for (const client of [a, b, b2]) expect(await client.next()).toEqual(value(temperature, { Temperature: { C: 31 } }))
    await Promise.all([a.close(), b.close(), b2.close()])
  })

  it("releases the watch and its queue, the fibers and the connection of a socket that closes", async () => {
    // Once the connections of the tests before have closed on both ends.
    const before = await eventuallyAsync(held, (now) => now.connections === 0)
    const clients = await Promise.all([1, 2, 3].map(() => openWatch(gateway)))
    for (const client of clients) client.send({ select: { id: lamp } })
    await Promise.all(clients.map((client) => client.next()))
    const open = await held()
    expect(open.watches).toBe(before.watches + 3)
    // At least the fiber that serves each socket; both ends of each connection live in this process.
    expect(open.fibers).toBeGreaterThanOrEqual(before.fibers + 3)
    expect(open.connections).toBe(before.connections + 6)
    await Promise.all(clients.map((client) => client.close()))
    const after = await eventuallyAsync(held, (now) => JSON.stringify(now) === JSON.stringify(before))
    expect(after).toEqual(before)
  })
})

describe("frames over the size limit", () => {
  it("close the socket with 1009 once a frame is one byte over --max-body-bytes (1 MiB), and release its watch", async () => {
    const limit = defaultGatewayOptions.maxBodyBytes
    const before = await gateway.liveWatches()
    const client = await openWatch(gateway)
    // Padded with JSON whitespace to exactly the limit: still a frame the server reads.
    const registration = JSON.stringify({ select: { id: lamp } })
    client.send(registration + " ".repeat(limit - Buffer.byteLength(registration)))
    expect(await client.next()).toEqual({ GetterAdded: lamp })
    expect(await gateway.liveWatches()).toBe(before + 1)
    // Malformed too: a server that read it would answer an Error at once instead of closing.
    client.send("x".repeat(limit + 1))
    expect(await Promise.race([client.closed, client.next()])).toEqual({ code: 1009, reason: expect.any(String) })
    await eventually(async () => (await gateway.liveWatches()) === before)
  })
})

describe("keep-alive", () => {
  it("pings its peers and drops one that does not answer", async () => {
    // Pings a quarter of a second apart: at 20 ms a busy machine could delay an answering peer's pong
    // past the next ping (client and server share this process's event loop), and drop it too.
    const quick = await startGateway(watchHome, { watchPingMs: 250 })
    const answering = await openWatch(quick)
    const silent = await openWatch(quick, "", { autoPong: false })
    let pings = 0
    answering.socket.on("ping", () => pings++)
    silent.send({ select: { id: lamp } })
    expect((await silent.closed).code).toBe(1006)
    await eventually(() => Promise.resolve(pings >= 3))
    expect(answering.socket.readyState).toBe(answering.socket.OPEN)
    await answering.close()
    await quick.close()
  })

  it("closes every socket with 1001 when the gateway stops", async () => {
    const stopping = await startGateway(watchHome)
    const client = await openWatch(stopping)
    client.send({ select: { id: lamp } })
    await client.next()
    await stopping.close()
    expect(await client.closed).toEqual({ code: 1001, reason: "the gateway is stopping" })
  })
})
