import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { channelSelector, Tag } from "../../../src/domain/index.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { openWatch, type WatchClient } from "../../support/openWatch.ts"

/**
 * A home far bigger than the limit of events that may wait for one socket (docs/watching.md, "Slow
 * consumers"): 100 services of 200 OnOff getters, each holding a value, the first half tagged `first`; an
 * OnOff getter that changes every 50 ms, for the live values that follow; and a log getter of 64 KiB values,
 * with which a client that stops reading soon fills the kernel's buffers.
 */
const services = 100
const gettersPerService = 200
const getterCount = services * gettersPerService
const getter = (s: number, g: number) => `getter:g${g}@s${s}`
const ticking = "getter:tick@large"
const big = "getter:big@large"
const everyOnOff = { select: { kind: "OnOff" } }
const bigHome = {
  adapter: "simulator@large.test",
  services: [
    ...Array.from({ length: services }, (_, s) => ({
      id: `service:s${s}@large`,
      tags: s < services / 2 ? ["first"] : [],
      getters: Array.from({ length: gettersPerService }, (_, g) => ({ id: getter(s, g), kind: "OnOff", value: { OnOff: "Off" } }))
    })),
    {
      id: "service:tick@large",
      getters: [{ id: ticking, kind: "OnOff", cycle: { every_ms: 50, values: [{ OnOff: "On" }, { OnOff: "Off" }] } }]
    },
    {
      id: "service:big@large",
      getters: [{ id: big, kind: "Log", cycle: { every_ms: 5, values: [{ String: "a".repeat(65_536) }, { String: "b".repeat(65_536) }] } }]
    }
  ]
}

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(bigHome, {}, { captureLogs: true })
})
afterAll(() => gateway.close())

/** The next `n` frames, counted by their one key (`GetterAdded`, `Value`…). */
const tally = async (client: WatchClient, n: number) => {
  const counts = new Map<string, Set<string>>()
  for (let i = 0; i < n; i++) {
    const frame = await client.next()
    const [key, body] = Object.entries(frame as Record<string, unknown>)[0] ?? ["", undefined]
    const from = typeof body === "string" ? body : (body as { from: string }).from
    counts.set(key, (counts.get(key) ?? new Set()).add(from))
  }
  return counts
}

/** Reads until a live value of the ticking getter arrives (the registration's own events all came first). */
const liveValue = async (client: WatchClient) => {
  for (;;) {
    const frame = await client.next()
    if (typeof frame === "object" && frame !== null && "Value" in frame) return frame
  }
}

describe("a registration larger than the limit of events waiting for a socket", () => {
  it(`delivers all ${getterCount} getters with their current values, then live values`, async () => {
    const client = await openWatch(gateway)
    client.send({ ...everyOnOff, initial_values: true })
    // Every getter, the ticking one included, is announced and then gets its value.
    const counts = await tally(client, 2 * (getterCount + 1))
    expect(counts.get("GetterAdded")?.size).toBe(getterCount + 1)
    expect(counts.get("Value")?.size).toBe(getterCount + 1)
    expect(await liveValue(client)).toEqual({ Value: { from: ticking, value: { OnOff: expect.any(String) } } })
    expect(client.socket.readyState).toBe(client.socket.OPEN)
    await client.close()
  })

  it(`announces all ${getterCount} getters without current values, then live values`, async () => {
    const client = await openWatch(gateway)
    client.send(everyOnOff)
    const counts = await tally(client, getterCount + 1)
    expect(counts.get("GetterAdded")?.size).toBe(getterCount + 1)
    expect(counts.get("Value")).toBeUndefined()
    expect(await liveValue(client)).toEqual({ Value: { from: ticking, value: { OnOff: expect.any(String) } } })
    await client.close()
  })
})

describe("a registration that another token made before", () => {
  it("is answered to a token of narrower scope with its part of the home only", async () => {
    const wide = await openWatch(gateway)
    wide.send(everyOnOff)
    expect((await tally(wide, getterCount + 1)).get("GetterAdded")?.size).toBe(getterCount + 1)
    await wide.close()
    const scope = { channels: [channelSelector({ serviceTags: [Tag.make("first")] })], rights: ["watch" as const] }
    const { token } = await gateway.createToken({ scope })
    const narrow = await openWatch({ baseUrl: gateway.baseUrl, token })
    narrow.send(everyOnOff)
    const firstHalf = Array.from({ length: services / 2 }, (_, s) => Array.from({ length: gettersPerService }, (_, g) => getter(s, g))).flat()
    expect([...(await tally(narrow, firstHalf.length)).get("GetterAdded") ?? []].sort()).toEqual(firstHalf.sort())
    await narrow.close()
  })
})

/** The log line of a socket closed with 1013 for falling behind. */
const closedTooSlow = /^WARN closed the watch socket of token \d+ from 127\.0\.0\.1 with 1013: too slow: fell over 1024 events behind$/

describe("a client that stops reading during a large registration", () => {
  it("is still closed with 1013 and cut once the set's changes put it more than the limit behind", async () => {
    const before = await gateway.liveWatches()
    const stalled = await openWatch(gateway)
    // 10,000 getters with their values: 20,000 events of its own, and the big log values behind them.
    stalled.send([{ select: { service_tags: ["first"] }, initial_values: true }, { select: { id: big } }, { select: { tags: ["moved"] } }])
    expect(await stalled.next()).toEqual({ GetterAdded: expect.any(String) })
    stalled.socket.pause()
    // Each edit moves 200 getters into or out of its set, changes that coalescing cannot drop: once the big
    // values have filled the kernel's buffers, they pile up in its queue.
    const closed = () => gateway.logs().some((line) => closedTooSlow.test(line))
    for (let s = services / 2; s < services && !closed(); s++) {
      for (const method of ["POST", "DELETE"]) {
        const reply = await gateway.call(method, "/api/v1/channels/tag", { set: { service: `service:s${s}@large` }, tags: ["moved"] })
        expect(reply.json).toBe(gettersPerService)
      }
    }
    await expect.poll(gateway.logs, { timeout: 20_000, interval: 20 }).toContainEqual(expect.stringMatching(closedTooSlow))
    // Without its reading a byte, its watch, and all its queue held, is released with its connection.
    await expect.poll(gateway.liveWatches, { timeout: 20_000, interval: 20 }).toBe(before)
    stalled.socket.resume()
    await stalled.closed
  })
})
