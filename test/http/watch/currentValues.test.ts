import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { openWatch, type WatchClient } from "../../support/openWatch.ts"
import { writeA, writeB } from "./watchHome.ts"

/**
 * Current values on registration (docs/reference.md §7, an extension of this gateway), on real sockets:
 * a lamp and a thermostat that hold values, and a sensor that has none yet, all in the living room (their
 * services carry the tag, for B's `service_tags`, and their getters too, for A, which has no service tags).
 */
const lamp = "getter:lamp@cv"
const temperature = "getter:temperature@cv"
const silent = "getter:silent@cv"

const home = {
  adapter: "simulator@currentValues.test",
  services: [
    {
      id: "service:lamp@cv",
      tags: ["living"],
      getters: [{ id: lamp, kind: "OnOff", tags: ["living"], value: { OnOff: "Off" } }],
      setters: [{ id: "setter:lamp@cv", kind: "OnOff", drives: lamp }]
    },
    {
      id: "service:thermostat@cv",
      tags: ["living"],
      getters: [{ id: temperature, kind: "Thermostat", tags: ["living"], value: { Temperature: { C: 20 } } }],
      setters: [{ id: "setter:temperature@cv", kind: "Thermostat", drives: temperature }]
    },
    { id: "service:silent@cv", tags: ["living"], getters: [{ id: silent, kind: "OnOff", tags: ["living"] }] }
  ]
}

const value = (from: string, v: unknown) => ({ Value: { from, value: v } })
const off = { OnOff: "Off" }
const on = { OnOff: "On" }
const celsius = (degrees: number) => ({ Temperature: { C: degrees } })

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(home)
})
afterAll(() => gateway.close())

/** What a registration of the whole living room with current values gets first, `added` being the vocabulary's addition. */
const livingRoomWithValues = (added: (id: string) => unknown) => [
  added(lamp),
  value(lamp, off),
  added(silent),
  added(temperature),
  value(temperature, celsius(20))
]

/** Nothing more came before the answer to a malformed frame: what was expected was all there was. */
const nothingElse = async (client: WatchClient) => {
  client.send("not json")
  expect(await client.next()).toEqual({ Error: expect.stringContaining("invalid JSON") })
}

describe("current values on registration (vocabulary B, \"initial_values\")", () => {
  it("sends each getter's value after its addition, none for a getter without one, then later values", async () => {
    const client = await openWatch(gateway)
    client.send([{ select: { service_tags: ["living"] }, initial_values: true }])
    expect(await client.collect(5)).toEqual(livingRoomWithValues((id) => ({ GetterAdded: id })))
    await writeB(gateway.call, lamp, on)
    expect(await client.next()).toEqual(value(lamp, on))
    await writeB(gateway.call, lamp, off)
    expect(await client.next()).toEqual(value(lamp, off))
    await nothingElse(client)
    await client.close()
  })

  it("sends no value on registration without it (the contract's own behaviour)", async () => {
    const client = await openWatch(gateway)
    client.send([{ select: { service_tags: ["living"] } }, { select: { id: lamp }, initial_values: false }])
    expect(await client.collect(3)).toEqual([{ GetterAdded: lamp }, { GetterAdded: silent }, { GetterAdded: temperature }])
    await nothingElse(client)
    await client.close()
  })

  it("sends a current value only if the entry's range lets it through, and none under \"Never\"", async () => {
    const client = await openWatch(gateway)
    client.send([
      { select: { id: temperature }, range: { Geq: celsius(25) }, initial_values: true },
      { select: { id: lamp }, range: "Never", initial_values: true }
    ])
    expect(await client.collect(2)).toEqual([{ GetterAdded: lamp }, { GetterAdded: temperature }])
    await nothingElse(client)
    client.send([{ select: { id: temperature }, range: { Leq: celsius(25) }, initial_values: true }])
    expect(await client.next()).toEqual({ GetterRemoved: lamp })
    expect(await client.next()).toEqual(value(temperature, celsius(20)))
    await client.close()
  })

  it("sends the current value of a getter that joins the watched set later", async () => {
    const client = await openWatch(gateway)
    client.send({ select: { tags: ["now"] }, initial_values: true })
    const tag = (method: string) => gateway.call(method, "/api/v1/channels/tag", { set: { id: lamp }, tags: ["now"] })
    expect((await tag("POST")).status).toBe(200)
    expect(await client.collect(2)).toEqual([{ GetterAdded: lamp }, value(lamp, off)])
    expect((await tag("DELETE")).status).toBe(200)
    expect(await client.next()).toEqual({ GetterRemoved: lamp })
    await client.close()
  })
})

describe("current values on registration (vocabulary A, \"should_send_initial_values\")", () => {
  it("sends each input's value, after its addition when topology is watched, none for an input without one", async () => {
    const client = await openWatch(gateway, "vocabulary=a")
    client.send([{
      source: { tags: ["living"] },
      should_watch_values: true,
      should_watch_topology: true,
      should_send_initial_values: true
    }])
    expect(await client.collect(5)).toEqual(livingRoomWithValues((id) => ({ GetAdded: id })))
    await writeA(gateway.call, temperature, celsius(21))
    expect(await client.next()).toEqual(value(temperature, celsius(21)))
    await writeA(gateway.call, temperature, celsius(20))
    expect(await client.next()).toEqual(value(temperature, celsius(20)))
    await nothingElse(client)
    await client.close()
  })

  it("sends the value alone without topology, nothing without should_watch_values, and nothing when not asked", async () => {
    const client = await openWatch(gateway, "vocabulary=a")
    client.send([
      { source: { id: { Exactly: lamp } }, should_watch_values: true, should_send_initial_values: true },
      { source: { id: { Exactly: temperature } }, should_send_initial_values: true },
      { source: { id: { Exactly: silent } }, should_watch_values: true, should_send_initial_values: true }
    ])
    expect(await client.next()).toEqual(value(lamp, off))
    await nothingElse(client)
    const notAsked = await openWatch(gateway, "vocabulary=a")
    notAsked.send([{ source: { tags: ["living"] }, should_watch_values: true, should_watch_topology: true }])
    expect(await notAsked.collect(3)).toEqual([{ GetAdded: lamp }, { GetAdded: silent }, { GetAdded: temperature }])
    await nothingElse(notAsked)
    await client.close()
    await notAsked.close()
  })
})
