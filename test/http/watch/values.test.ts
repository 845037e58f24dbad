import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { openWatch } from "../../support/openWatch.ts"
import { celsius, door, fahrenheit, lamp, off, on, smoke, temperature, watchHome, writeA, writeB } from "./watchHome.ts"

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(watchHome)
})
afterAll(() => gateway.close())

const value = (from: string, v: unknown) => ({ Value: { from, value: v } })

describe("watch_values (vocabulary B)", () => {
  it("announces the channels already watched, then sends values written over REST in either vocabulary", async () => {
    const client = await openWatch(gateway)
    client.send([{ select: { service_tags: ["living"] } }])
    expect(await client.collect(2)).toEqual([{ GetterAdded: lamp }, { GetterAdded: temperature }])
    await writeB(gateway.call, lamp, on)
    expect(await client.next()).toEqual(value(lamp, on))
    await writeA(gateway.call, lamp, off)
    expect(await client.next()).toEqual(value(lamp, off))
    await client.close()
  })

  it("sends the values of a cycling getter", async () => {
    const client = await openWatch(gateway, "vocabulary=b")
    client.send({ select: { id: door } })
    expect(await client.next()).toEqual({ GetterAdded: door })
    const values = await client.collect(2)
    expect(values).toContainEqual(value(door, { OpenClosed: "Open" }))
    expect(values).toContainEqual(value(door, { OpenClosed: "Closed" }))
    await client.close()
  })

  it("delivers only values in each range form, temperatures compared in Celsius", async () => {
    const ranges = [
      { range: { Eq: celsius(25) }, in: fahrenheit(77), out: celsius(24) },
      { range: { Leq: celsius(10) }, in: fahrenheit(50), out: celsius(10.5) },
      { range: { Geq: fahrenheit(212) }, in: celsius(100), out: celsius(99) },
      { range: { BetweenEq: [celsius(0), celsius(5)] }, in: celsius(5), out: celsius(6) },
      { range: { OutOfStrict: [celsius(0), celsius(5)] }, in: celsius(-1), out: celsius(0) }
    ]
    for (const { range, in: inside, out } of ranges) {
      const client = await openWatch(gateway)
      client.send([{ select: { id: temperature }, range }])
      expect(await client.next()).toEqual({ GetterAdded: temperature })
      await writeB(gateway.call, temperature, out)
      await writeB(gateway.call, temperature, inside)
      expect(await client.next(), JSON.stringify(range)).toEqual(value(temperature, inside))
      await client.close()
    }
  })

  it("drops values of another type than the range's, and sends none under Never", async () => {
    const client = await openWatch(gateway)
    client.send([
      { select: { id: lamp }, range: { Geq: celsius(0) } },
      { select: { id: temperature }, range: "Never" },
      { select: { id: door }, range: { Eq: { OnOff: "On" } } }
    ])
    expect(await client.collect(3)).toEqual([{ GetterAdded: door }, { GetterAdded: lamp }, { GetterAdded: temperature }])
    await writeB(gateway.call, lamp, on)
    await writeB(gateway.call, temperature, celsius(30))
    // Nothing came for the lamp, the thermostat or the door: the next frame is the answer to a bad one.
    client.send("not json")
    expect(await client.next()).toEqual({ Error: expect.stringContaining("invalid JSON") })
    await client.close()
  })

  it("reports an InitializationError for a device that refuses Always, and goes on with the rest", async () => {
    const client = await openWatch(gateway)
    client.send([{ select: [{ id: smoke }, { id: lamp }] }])
    expect(await client.collect(3)).toEqual([
      { GetterAdded: lamp },
      { GetterAdded: smoke },
      { InitializationError: { channel: smoke, error: { InternalError: expect.stringContaining("threshold") } } }
    ])
    await writeB(gateway.call, smoke, on)
    await writeB(gateway.call, lamp, off)
    await writeB(gateway.call, lamp, on)
    expect(await client.next()).toEqual(value(lamp, off))
    await client.close()
  })

  it("sends one event per value for a channel several selectors match", async () => {
    const client = await openWatch(gateway)
    client.send([{ select: [{ id: lamp }, { service_tags: ["living"] }] }, { select: { id: lamp }, range: { Eq: on } }])
    expect(await client.collect(2)).toEqual([{ GetterAdded: lamp }, { GetterAdded: temperature }])
    await writeB(gateway.call, lamp, off)
    await writeB(gateway.call, lamp, on)
    expect(await client.collect(2)).toEqual([value(lamp, off), value(lamp, on)])
    await writeB(gateway.call, temperature, celsius(19))
    expect(await client.next()).toEqual(value(temperature, celsius(19)))
    await client.close()
  })
})

describe("watch_values (vocabulary A)", () => {
  it("sends values and topology only when asked", async () => {
    const values = await openWatch(gateway)
    values.send([{ source: { id: { Exactly: lamp } }, should_watch_values: true }])
    const topology = await openWatch(gateway)
    topology.send([{ source: { id: { Exactly: lamp } }, should_watch_topology: true }])
    expect(await topology.next()).toEqual({ GetAdded: lamp })
    await writeA(gateway.call, lamp, off)
    await writeA(gateway.call, lamp, on)
    expect(await values.collect(2)).toEqual([value(lamp, off), value(lamp, on)])
    // The topology-only socket got no value: its next frame is the answer to a bad one.
    topology.send({})
    expect(await topology.next()).toEqual({ Error: expect.any(String) })
    await values.close()
    await topology.close()
  })

  it("sends nothing for a device that refuses the watch (A has no event for it), values of the others", async () => {
    const client = await openWatch(gateway, "vocabulary=a")
    client.send([{ source: { id: { Exactly: smoke } }, should_watch_values: true, should_watch_topology: true }, {
      source: { id: { Exactly: lamp } },
      should_watch_values: true
    }])
    expect(await client.next()).toEqual({ GetAdded: smoke })
    await writeA(gateway.call, smoke, off)
    await writeA(gateway.call, lamp, off)
    await writeA(gateway.call, lamp, on)
    expect(await client.next()).toEqual(value(lamp, off))
    await client.close()
  })
})
