import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { WATCH_QUEUE_LIMIT, WATCH_QUEUE_RESUME } from "../../../src/gateway/WatchQueue.ts"
import { type GatewayOverHttp, gatewayForSuite } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { openWatch, type WatchClient } from "../../support/openWatch.ts"
import { parseScrape, sample } from "../../support/prometheusText.ts"

/**
 * Homes that flood their watchers. One of log getters driven by setters, written over REST with fresh
 * strings, so that every event holds its own value. Another of a log getter cycling through two
 * 64 KiB strings every millisecond (a client that stops reading fills the kernel's buffers within a few
 * values), and a service of many getters, for floods of topology events: a gateway of its own, for the
 * two tests that need it, since that cycle costs a tenth of a core for as long as its gateway runs.
 */
const big = "getter:big@slow"
const bigValueBytes = 64 * 1024
const bigString = (c: string) => ({ String: c.repeat(bigValueBytes) })
const manyCount = WATCH_QUEUE_RESUME + 100
const floodCount = 32
const flooded = (i: number) => `getter:flood-${i}@slow`
const floodHome = {
  adapter: "simulator@slow.test",
  services: [
    {
      id: "service:flood@slow",
      getters: Array.from({ length: floodCount }, (_, i) => ({ id: flooded(i), kind: "Log" })),
      setters: Array.from({ length: floodCount }, (_, i) => ({ id: `setter:flood-${i}@slow`, kind: "Log", drives: flooded(i) }))
    },
    {
      id: "service:marker@slow",
      getters: [{ id: "getter:marker@slow", kind: "Log" }],
      setters: [{ id: "setter:marker@slow", kind: "Log", drives: "getter:marker@slow" }]
    }
  ]
}
const bigAndManyHome = {
  adapter: "simulator@slow.test",
  services: [
    {
      id: "service:big@slow",
      getters: [{ id: big, kind: "Log", cycle: { every_ms: 1, values: [bigString("a"), bigString("b")] } }]
    },
    {
      id: "service:many@slow",
      getters: Array.from({ length: manyCount }, (_, i) => ({ id: `getter:many-${i}@slow`, kind: "OnOff" }))
    }
  ]
}

/** Reads `n` values of the big getter. */
const readValues = async (client: WatchClient, n: number) => {
  for (let seen = 0; seen < n;) {
    const frame = await client.next()
    if (typeof frame === "object" && frame !== null && "Value" in frame) seen++
  }
}

/** The limit docs/watching.md states ("Slow consumers"): written out, so that a larger WATCH_QUEUE_LIMIT fails here. */
const documentedLimit = 1_024
/** A large flooded value: 16 KiB, so that a round of them (32 getters) is a body of 512 KiB, under the default 1 MiB. */
const largeValueBytes = 16 * 1024
/** A small flooded value: its round number and getter, and padding, once the kernel's buffers are full. */
const smallValueBytes = 32
/** A flooded value's frame, at most: a large value, and room for the frame's head and its `{"Value": …}` wrapping. */
const floodFrameBytes = largeValueBytes + 256

/**
 * What the gateway holds for its slowest watcher, as `GET /metrics` reads it from the live watches: the
 * events in its queue, and the bytes of the batch that waits in the process for its socket.
 */
const backlog = async (gateway: GatewayOverHttp) => {
  const reply = await send(`${gateway.baseUrl}/metrics`, { headers: { authorization: `Bearer ${gateway.token}` } })
  expect(reply.status).toBe(200)
  const scrape = parseScrape(reply.body)
  return { events: sample(scrape, "gateway_watch_queued_events", {}), unsentBytes: sample(scrape, "gateway_watch_unsent_bytes", {}) }
}

/**
 * A flooded value, carrying its round number: `round:getter:`, padded to `bytes`. The value's size is the
 * flood's cost (every byte is copied some eight times between the test and the gateway), so only what
 * must fill the kernel's buffers is large.
 */
const floodValue = (round: number, i: number, bytes: number) => ({ String: `${round}:${i}:`.padEnd(bytes, "x") })
const roundOf = (value: unknown): number => {
  const text = typeof value === "object" && value !== null && "String" in value ? String(value.String) : ""
  return Number(text.slice(0, text.indexOf(":")))
}

/**
 * The most bytes the kernel can hold between a gateway writing to loopback and a client that stopped
 * reading early: the gateway's send buffer, which grows up to `tcp_wmem`'s maximum, and the client's
 * receive buffer, `tcp_rmem`'s default (it grows past that only as its reader reads, and this one read a
 * few frames). On this machine 4 MiB and 128 KiB (`ss -tm` shows them so: tb4194304, rb131072), whatever
 * the size of the frames. Read from the machine, so that the flood fills them on one with larger buffers.
 */
const loopbackBufferBytes = (): number => {
  const field = (file: string, index: number) => Number(readFileSync(`/proc/sys/net/ipv4/${file}`, "utf8").trim().split(/\s+/)[index])
  return field("tcp_wmem", 2) + field("tcp_rmem", 1)
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

/** The gateway's log lines from now on: the previous test's on the same gateway do not count. */
const logsSince = (gateway: GatewayOverHttp) => {
  const from = gateway.logs().length
  return () => gateway.logs().slice(from)
}

/** Polling for what the server does by itself: a bound for a stuck test, not a timing assertion. */
const patiently = { timeout: 20_000, interval: 20 }

/**
 * A client that stops reading once it is behind on the big getter's values, which soon fill the kernel's
 * buffers (a batch for it then waits in the server), and then falls behind by more set changes than
 * coalescing can absorb; and a reader of the big getter, to see the server go on. The reader is closed
 * once it has seen that: kept open, it would take a value of 64 KiB every millisecond until the test ends,
 * which the gateway would encode and the test parse, for nothing.
 */
const stallInAFloodOfSetChanges = async (gateway: GatewayOverHttp) => {
  const stalled = await openWatch(gateway)
  stalled.send([{ select: { id: big } }, { select: { tags: ["flooded"] } }])
  await stalled.next()
  stalled.socket.pause()
  const reader = await openWatch(gateway)
  reader.send({ select: { id: big } })
  // Every value the reader sees went to the stalled client too, which registered before it: more than its
  // kernel's buffers hold, and a few for what its process read before it paused (64 KiB a read).
  await readValues(reader, Math.ceil(loopbackBufferBytes() / bigValueBytes) + 4)
  await reader.close()
  // Each tag edit moves every getter of the service in or out of the stalled client's set.
  for (const method of ["POST", "DELETE", "POST"]) {
    const reply = await gateway.call(method, "/api/v1/channels/tag", { set: { service: "service:many@slow" }, tags: ["flooded"] })
    expect(reply.json).toBe(manyCount)
  }
  return stalled
}

describe("slow consumers", () => {
  const floodGateway = gatewayForSuite(floodHome, {}, { captureLogs: true })

  it("coalesce the values of a client that stops reading, so what the server holds for it stays bounded", async () => {
    const gateway = floodGateway()
    const stalled = await openWatch(gateway)
    stalled.send({ select: { service: "service:flood@slow" } })
    const added = Array.from({ length: floodCount }, (_, i) => ({ GetterAdded: flooded(i) }))
    expect(await stalled.collect(floodCount)).toEqual(expect.arrayContaining(added))
    stalled.socket.pause()
    const marker = await openWatch(gateway)
    marker.send({ select: { id: "getter:marker@slow" } })
    expect(await marker.next()).toEqual({ GetterAdded: "getter:marker@slow" })
    // First large values, until the kernel's buffers are full and a batch waits in the gateway for the
    // socket (it waits for good: the client reads nothing). From then on every value the gateway takes goes
    // to the stalled client's queue, so small ones will do: twice the queue's limit and a round more of
    // them, so that coalescing must drop more than a queue's worth (the queue keeps at most 1,024 of them).
    // The kernel's buffers hold bytes and the queue holds events, so only the first need large values:
    // near 5 MiB in all here, where the same flood of large values only would be near 38 MiB.
    const put = async (round: number, bytes: number) => {
      const targets = Array.from({ length: floodCount }, (_, i) => ({ select: { id: `setter:flood-${i}@slow` }, value: floodValue(round, i, bytes) }))
      const reply = await gateway.call("PUT", "/api/v1/channels/set", targets)
      expect(reply.status).toBe(200)
    }
    const kernelBytes = loopbackBufferBytes()
    let rounds = 0
    // A batch may wait a moment while the buffers grow, hence the bytes first; then a batch that waits.
    while (rounds * floodCount * largeValueBytes <= kernelBytes || (await backlog(gateway)).unsentBytes === 0) {
      await put(rounds++, largeValueBytes)
    }
    const roundsPastTheKernel = (2 * WATCH_QUEUE_LIMIT) / floodCount + 1
    for (const end = rounds + roundsPastTheKernel; rounds < end;) await put(rounds++, smallValueBytes)
    // The hub handles changes in order: once the marker's value is out, every flooded value was queued.
    await gateway.call("PUT", "/api/v1/channels/set", { select: { id: "setter:marker@slow" }, value: { String: "done" } })
    expect(await marker.next()).toEqual({ Value: { from: "getter:marker@slow", value: { String: "done" } } })
    const held = await backlog(gateway)
    expect(held.events).toBeGreaterThan(0)
    expect(held.events).toBeLessThanOrEqual(documentedLimit)
    expect(held.unsentBytes).toBeGreaterThan(0)
    expect(held.unsentBytes).toBeLessThanOrEqual(documentedLimit * floodFrameBytes)
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

  it("close with 1013 and cut a client that sends malformed frames without reading the answers, saying why in the log", async () => {
    const gateway = floodGateway()
    const client = await openWatch(gateway)
    client.socket.pause()
    // Answers must fill the kernel's buffers (several MiB on loopback), then pass ERROR_BACKLOG_BYTES:
    // few frames if each answer is large, and an unknown field is named in full in its answer. Each
    // frame is sent once the last has reached the kernel, so that the client sends only about as many
    // as the server needs, whatever its buffers.
    const frame = JSON.stringify({ [`unknown-${"k".repeat(16 * 1024)}`]: 1 })
    const written = () => new Promise<void>((resolve) => client.socket.send(frame, () => resolve()))
    const answeredTooLong = () => gateway.logs().some((line) => line.endsWith("too slow: not reading the answers to its frames"))
    while (!answeredTooLong()) await written()
    await expect.poll(gateway.logs, patiently).toContainEqual(closedTooSlow("too slow: not reading the answers to its frames"))
    client.socket.resume()
    await client.closed
  })
})

describe("slow consumers behind on a big getter's values", () => {
  // The client reads again once the close is logged: it has the whole close grace to read what was sent
  // before the close, the close frame included (past it, it is cut). Under load, the default 1 s was not
  // always enough between the log line and the last frame read, so this gateway gives it the test's bound.
  const bigGateway = gatewayForSuite(bigAndManyHome, { watchCloseGraceMs: patiently.timeout }, { captureLogs: true })

  it("close with 1013 a client whose backlog of topology events coalescing cannot absorb", async () => {
    const gateway = bigGateway()
    const logged = logsSince(gateway)
    const stalled = await stallInAFloodOfSetChanges(gateway)
    await expect.poll(logged, patiently).toContainEqual(closedTooSlow(`too slow: fell over ${WATCH_QUEUE_LIMIT} events behind`))
    stalled.socket.resume()
    expect(await stalled.closed).toEqual({ code: 1013, reason: expect.stringContaining("too slow") })
  })
})

describe("slow consumers that never read again", () => {
  // The default close grace: the client is cut once it is over.
  const bigGateway = gatewayForSuite(bigAndManyHome, {}, { captureLogs: true })

  it("close with 1013 and cut a client that never reads again, saying why in the log", async () => {
    const gateway = bigGateway()
    const before = await gateway.liveWatches()
    const logged = logsSince(gateway)
    const stalled = await stallInAFloodOfSetChanges(gateway)
    // Without its reading a byte, the server lets it go: its watch is released with its connection.
    await expect.poll(logged, patiently).toContainEqual(closedTooSlow(`too slow: fell over ${WATCH_QUEUE_LIMIT} events behind`))
    await expect.poll(gateway.liveWatches, patiently).toBe(before)
    stalled.socket.resume()
    await stalled.closed
  })
})
