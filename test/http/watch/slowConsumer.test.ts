import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WATCH_QUEUE_LIMIT, WATCH_QUEUE_RESUME } from "../../../src/gateway/WatchQueue.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { openWatch, type WatchClient } from "../../support/openWatch.ts"

/**
 * A home that floods its watchers: a log getter cycling through two 64 KiB strings every millisecond
 * (a client that stops reading fills the kernel's buffers within a few values); log getters driven by
 * setters, written over REST with fresh 16 KiB strings, so that every event holds its own value; and a
 * service of many getters, for floods of topology events.
 */
const big = "getter:big@slow"
const bigString = (c: string) => ({ String: c.repeat(64 * 1024) })
const manyCount = WATCH_QUEUE_RESUME + 100
const floodCount = 32
const flooded = (i: number) => `getter:flood-${i}@slow`
const slowHome = {
  adapter: "simulator@slow.test",
  services: [
    {
      id: "service:big@slow",
      getters: [{ id: big, kind: "Log", cycle: { every_ms: 1, values: [bigString("a"), bigString("b")] } }]
    },
    {
      id: "service:flood@slow",
      getters: Array.from({ length: floodCount }, (_, i) => ({ id: flooded(i), kind: "Log" })),
      setters: Array.from({ length: floodCount }, (_, i) => ({ id: `setter:flood-${i}@slow`, kind: "Log", drives: flooded(i) }))
    },
    {
      id: "service:marker@slow",
      getters: [{ id: "getter:marker@slow", kind: "Log" }],
      setters: [{ id: "setter:marker@slow", kind: "Log", drives: "getter:marker@slow" }]
    },
    {
      id: "service:many@slow",
      getters: Array.from({ length: manyCount }, (_, i) => ({ id: `getter:many-${i}@slow`, kind: "OnOff" }))
    }
  ]
}

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(slowHome, {}, { captureLogs: true })
})
afterAll(() => gateway.close())

/** Reads `n` values of the big getter. */
const readValues = async (client: WatchClient, n: number) => {
  for (let seen = 0; seen < n;) {
    const frame = await client.next()
    if (typeof frame === "object" && frame !== null && "Value" in frame) seen++
  }
}

// Memory is measured after a full collection, or it would count the garbage of the requests. Strings
// live on the heap; the bytes of encoded frames waiting to be sent live in ArrayBuffers, outside it.
setFlagsFromString("--expose-gc")
const collectGarbage = runInNewContext("gc") as () => void
const memoryMiB = () => {
  collectGarbage()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return (heapUsed + arrayBuffers) / 2 ** 20
}

/** The round number a flooded value carries: `round:` and then padding, 16 KiB in all. */
const floodValue = (round: number, i: number) => ({ String: `${round}:${i}:`.padEnd(16 * 1024, "x") })
const roundOf = (value: unknown): number => {
  const text = typeof value === "object" && value !== null && "String" in value ? String(value.String) : ""
  return Number(text.slice(0, text.indexOf(":")))
}
/** A `{"Value": {"from", "value"}}` frame, read; anything else fails the test. */
const valueFrame = (frame: unknown): { readonly from: string; readonly value: unknown } => {
  const inner = typeof frame === "object" && frame !== null && "Value" in frame ? frame.Value : undefined
  if (typeof inner === "object" && inner !== null && "from" in inner && typeof inner.from === "string" && "value" in inner) {
    return { from: inner.from, value: inner.value }
  }
  throw new Error(`expected a value, got ${JSON.stringify(frame)}`)
}

/** The log line of a socket closed with 1013 for `reason`: it names the token by its id, and the address. */
const closedTooSlow = (reason: string) =>
  expect.stringMatching(new RegExp(`^WARN closed the watch socket of token \\d+ from 127\\.0\\.0\\.1 with 1013: ${reason}$`))

/** Polling for what the server does by itself: a bound for a stuck test, not a timing assertion. */
const patiently = { timeout: 20_000, interval: 20 }

/**
 * A client that stops reading once it is behind on the big getter's values, which soon fill the kernel's
 * buffers (a batch for it then waits in the server), and then falls behind by more set changes than
 * coalescing can absorb; and a reader of the big getter, to see the server go on.
 */
const stallInAFloodOfSetChanges = async () => {
  const reader = await openWatch(gateway)
  reader.send({ select: { id: big } })
  const stalled = await openWatch(gateway)
  stalled.send([{ select: { id: big } }, { select: { tags: ["flooded"] } }])
  await stalled.next()
  stalled.socket.pause()
  await readValues(reader, 300)
  // Each tag edit moves every getter of the service in or out of the stalled client's set.
  for (const method of ["POST", "DELETE", "POST"]) {
    const reply = await gateway.call(method, "/api/v1/channels/tag", { set: { service: "service:many@slow" }, tags: ["flooded"] })
    expect(reply.json).toBe(manyCount)
  }
  return { reader, stalled }
}

describe("slow consumers", () => {
  it("coalesce the values of a client that stops reading, so the server's memory stays bounded", async () => {
    const stalled = await openWatch(gateway)
    stalled.send({ select: { service: "service:flood@slow" } })
    const added = Array.from({ length: floodCount }, (_, i) => ({ GetterAdded: flooded(i) }))
    expect(await stalled.collect(floodCount)).toEqual(expect.arrayContaining(added))
    stalled.socket.pause()
    const marker = await openWatch(gateway)
    marker.send({ select: { id: "getter:marker@slow" } })
    expect(await marker.next()).toEqual({ GetterAdded: "getter:marker@slow" })
    const before = memoryMiB()
    // 4,096 fresh values of 16 KiB: 64 MiB had the server kept them all for the stalled client (measured
    // so, with WATCH_QUEUE_LIMIT set to Infinity). Bounded, it holds at most WATCH_QUEUE_LIMIT of them
    // (16 MiB) and the batch waiting in the connection (one request's 32 values).
    const rounds = 128
    for (let round = 0; round < rounds; round++) {
      const targets = Array.from({ length: floodCount }, (_, i) => ({ select: { id: `setter:flood-${i}@slow` }, value: floodValue(round, i) }))
      const reply = await gateway.call("PUT", "/api/v1/channels/set", targets)
      expect(reply.status).toBe(200)
    }
    // The hub handles changes in order: once the marker's value is out, every flooded value was queued.
    await gateway.call("PUT", "/api/v1/channels/set", { select: { id: "setter:marker@slow" }, value: { String: "done" } })
    expect(await marker.next()).toEqual({ Value: { from: "getter:marker@slow", value: { String: "done" } } })
    const grown = memoryMiB() - before
    expect(grown).toBeLessThan(32)
    // Once it reads again, it gets every getter's latest value, each getter's values in order, fewer
    // than were sent (the rest were coalesced away), on a socket still open.
    stalled.socket.resume()
    const last = new Map<string, number>()
    let received = 0
    while (last.size < floodCount || [...last.values()].some((round) => round < rounds - 1)) {
      const frame = await stalled.next()
      const { from, value } = valueFrame(frame)
      const round = roundOf(value)
      expect(round).toBeGreaterThan(last.get(from) ?? -1)
      last.set(from, round)
      received++
    }
    expect(received).toBeLessThan(rounds * floodCount - WATCH_QUEUE_LIMIT)
    expect(stalled.socket.readyState).toBe(stalled.socket.OPEN)
    await Promise.all([marker.close(), stalled.close()])
  })

  it("close with 1013 a client whose backlog of topology events coalescing cannot absorb", async () => {
    const { reader, stalled } = await stallInAFloodOfSetChanges()
    // It reads again as soon as the server has closed it: within the grace a closed peer has to read
    // what was sent before the close, the close frame included (CLOSE_GRACE_MS; past it, it is cut).
    await expect.poll(gateway.logs, patiently).toContainEqual(closedTooSlow(`too slow: fell over ${WATCH_QUEUE_LIMIT} events behind`))
    stalled.socket.resume()
    expect(await stalled.closed).toEqual({ code: 1013, reason: expect.stringContaining("too slow") })
    await reader.close()
  })

  it("close with 1013 and cut a client that never reads again, saying why in the log", async () => {
    const before = await gateway.liveWatches()
    const { reader, stalled } = await stallInAFloodOfSetChanges()
    // Without its reading a byte, the server lets it go: its watch is released with its connection.
    await expect.poll(gateway.logs, patiently).toContainEqual(closedTooSlow(`too slow: fell over ${WATCH_QUEUE_LIMIT} events behind`))
    await expect.poll(gateway.liveWatches, patiently).toBe(before + 1)
    stalled.socket.resume()
    await stalled.closed
    await reader.close()
  })

  it("close with 1013 and cut a client that sends malformed frames without reading the answers, saying why in the log", async () => {
    const client = await openWatch(gateway)
    client.socket.pause()
    // About 17 MiB of answers: more than the kernel's buffers hold, then more than ERROR_BACKLOG_BYTES.
    for (let i = 0; i < 300_000; i++) client.socket.send("x")
    await expect.poll(gateway.logs, patiently).toContainEqual(closedTooSlow("too slow: not reading the answers to its frames"))
    client.socket.resume()
    await client.closed
  })
})
