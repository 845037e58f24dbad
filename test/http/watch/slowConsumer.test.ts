import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WATCH_QUEUE_RESUME } from "../../../src/gateway/WatchQueue.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { openWatch, type WatchClient } from "../../support/openWatch.ts"

/**
 * A home that floods its watchers: a log getter cycling through two 64 KiB strings every millisecond
 * (a client that stops reading fills the kernel's buffers within a few values), and a service of many
 * getters, for floods of topology events.
 */
const big = "getter:big@slow"
const bigString = (c: string) => ({ String: c.repeat(64 * 1024) })
const manyCount = WATCH_QUEUE_RESUME + 100
const slowHome = {
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

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(slowHome)
})
afterAll(() => gateway.close())

/** Reads `n` values of the big getter. */
const readValues = async (client: WatchClient, n: number) => {
  for (let seen = 0; seen < n;) {
    const frame = await client.next()
    if (typeof frame === "object" && frame !== null && "Value" in frame) seen++
  }
}

// The heap is measured after a full collection, or it would count the garbage of the reading client.
setFlagsFromString("--expose-gc")
const collectGarbage = runInNewContext("gc") as () => void
const heapMiB = () => {
  collectGarbage()
  return process.memoryUsage().heapUsed / 2 ** 20
}

describe("slow consumers", () => {
  it("coalesce the values of a client that stops reading, so the server's memory stays bounded", async () => {
    const reader = await openWatch(gateway)
    reader.send({ select: { id: big } })
    const stalled = await openWatch(gateway)
    stalled.send({ select: { id: big } })
    await stalled.next()
    stalled.socket.pause()
    await readValues(reader, 300)
    const before = heapMiB()
    // 1,500 values of 64 KiB: 94 MiB had the server kept them for the stalled client.
    await readValues(reader, 1_500)
    const grown = heapMiB() - before
    expect(grown).toBeLessThan(48)
    // Once it reads again, it gets the latest values, in order, on a socket still open.
    stalled.socket.resume()
    await readValues(stalled, 10)
    expect(stalled.socket.readyState).toBe(stalled.socket.OPEN)
    await Promise.all([reader.close(), stalled.close()])
  })

  it("close with 1013 a client whose backlog of topology events coalescing cannot absorb", async () => {
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
    // The hub handles changes in order: once the reader sees later values, the flood has been queued.
    await readValues(reader, 50)
    stalled.socket.resume()
    expect(await stalled.closed).toEqual({ code: 1013, reason: expect.stringContaining("too slow") })
    await reader.close()
  })
  it("close with 1013 a client that sends malformed frames without reading the answers", async () => {
    const client = await openWatch(gateway)
    client.socket.pause()
    // About 17 MiB of answers: more than the kernel's buffers hold, then more than ERROR_BACKLOG_BYTES.
    for (let i = 0; i < 300_000; i++) client.socket.send("x")
    // Frames are read in order, even on a closing socket: once this registration counts, all were read.
    const before = await gateway.liveWatches()
    client.send({ select: { id: big } })
    while ((await gateway.liveWatches()) === before) await new Promise((resolve) => setTimeout(resolve, 20))
    client.socket.resume()
    expect(await client.closed).toEqual({ code: 1013, reason: expect.stringContaining("not reading") })
  })
})
