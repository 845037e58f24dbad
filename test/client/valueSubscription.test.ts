import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChannelId, channelId, channelSelector, exactly, onOff, type Value } from "../../src/client/index.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { clientOf } from "./clients.ts"

/**
 * `subscribeValues` keeps the current value of every getter matched, and gives the whole map at each
 * change until it is stopped; a `for await` watch given a signal stops at a deadline, with no event to
 * wait for.
 */

const home = JSON.parse(readFileSync(new URL("../../docs/examples/home.json", import.meta.url), "utf8"))
let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(home)
})
afterAll(() => gateway.close())

const getter = (id: string) => channelSelector({ id: exactly(channelId(id)), mechanism: exactly("getter") })
const hallSetter = channelSelector({ id: exactly(channelId("setter:hall-light-on@sim")), mechanism: exactly("setter") })

describe.each(["a", "b"] as const)("subscribeValues, in vocabulary %s", (vocabulary) => {
  it("gives the current values, then each change, until it is stopped", async () => {
    const client = clientOf(gateway, vocabulary)
    await client.send([{ selectors: [hallSetter], value: onOff("Off") }])
    const maps: Array<ReadonlyMap<ChannelId, Value>> = []
    const stop = client.subscribeValues([getter("getter:hall-light-on@sim"), getter("getter:thermostat-target@sim")], (values) => maps.push(values))
    await expect.poll(() => maps.at(-1)?.size).toBe(2)
    expect(maps.at(-1)?.get(channelId("getter:hall-light-on@sim"))).toEqual(onOff("Off"))
    expect(maps.at(-1)?.get(channelId("getter:thermostat-target@sim"))?._tag).toBe("Temperature")
    await client.send([{ selectors: [hallSetter], value: onOff("On") }])
    await expect.poll(() => maps.at(-1)?.get(channelId("getter:hall-light-on@sim"))).toEqual(onOff("On"))
    expect(maps.at(-1)?.size).toBe(2)
    stop()
    await expect.poll(() => gateway.liveWatches()).toBe(0)
    const seen = maps.length
    await client.send([{ selectors: [hallSetter], value: onOff("Off") }])
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(maps).toHaveLength(seen)
    await client.close()
  })
})

describe("a for await watch with a signal", () => {
  it("stops at its deadline without waiting for a next event", async () => {
    const client = clientOf(gateway, "b")
    const quiet = [{ selector: getter("getter:hall-light-on@sim"), values: { _tag: "Never" } as const, topology: true, initialValues: false }]
    // The deadline runs from the registration's own event, the last that comes: on a busy machine, that
    // event alone took longer than a deadline set before the watch opened.
    const deadline = new AbortController()
    let started = 0
    const tags: Array<string> = []
    for await (const event of client.watch(quiet, undefined, { signal: deadline.signal })) {
      tags.push(event._tag)
      started = performance.now()
      setTimeout(() => deadline.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")), 500)
    }
    expect(tags).toEqual(["ChannelAdded"])
    expect(performance.now() - started).toBeGreaterThanOrEqual(450)
    expect(performance.now() - started).toBeLessThan(2_000)
    await expect.poll(() => gateway.liveWatches()).toBe(0)
    await client.close()
  })
})
