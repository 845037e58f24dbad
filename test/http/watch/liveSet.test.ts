import { writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { openWatch } from "../../support/openWatch.ts"
import { lamp, nextWithoutValues, on, smoke, temperature, watchHome, writeB } from "./watchHome.ts"

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(watchHome)
})
afterAll(() => gateway.close())

const tagChannel = (method: "POST" | "DELETE", id: string, tag: string) =>
  gateway.call(method, "/api/v1/channels/tag", { set: { id }, tags: [tag] })

describe("the watched set is live", () => {
  it("adds and removes a channel when its tags are edited over REST", async () => {
    const client = await openWatch(gateway)
    client.send([{ select: { tags: ["watched"] } }])
    expect((await tagChannel("POST", smoke, "watched")).status).toBe(200)
    expect(await client.collect(2)).toEqual([
      { GetterAdded: smoke },
      { InitializationError: { channel: smoke, error: { InternalError: expect.any(String) } } }
    ])
    expect((await tagChannel("DELETE", smoke, "watched")).status).toBe(200)
    expect(await client.next()).toEqual({ GetterRemoved: smoke })
    await client.close()
  })

  it("removes and adds services when the home file is edited", async () => {
    const client = await openWatch(gateway)
    client.send([{ select: { service_tags: ["living"] } }])
    expect(await client.collect(2)).toEqual([{ GetterAdded: lamp }, { GetterAdded: temperature }])
    const [lampService, thermostat, ...rest] = watchHome.services
    const garage = {
      id: "service:garage@w",
      tags: ["living"],
      getters: [{ id: "getter:garage@w", kind: "OpenClosed", value: { OpenClosed: "Closed" } }]
    }
    writeFileSync(gateway.homeFile, JSON.stringify({ ...watchHome, services: [thermostat, ...rest, garage] }))
    const changes = await nextWithoutValues(client, 2)
    expect(changes).toContainEqual({ GetterRemoved: lamp })
    expect(changes).toContainEqual({ GetterAdded: "getter:garage@w" })
    writeFileSync(gateway.homeFile, JSON.stringify({ ...watchHome, services: [lampService, thermostat, ...rest] }))
    const back = await nextWithoutValues(client, 2)
    expect(back).toContainEqual({ GetterRemoved: "getter:garage@w" })
    expect(back).toContainEqual({ GetterAdded: lamp })
    await client.close()
  })

  it("in vocabulary A, watches source ∧ narrow", async () => {
    await tagChannel("POST", lamp, "narrowed")
    const client = await openWatch(gateway)
    client.send([{
      source: { tags: ["narrowed"] },
      narrow: [{ parent: { Exactly: "service:lamp@w" } }],
      should_watch_topology: true,
      should_watch_values: true
    }])
    expect(await client.next()).toEqual({ GetAdded: lamp })
    // The smoke sensor carries the tag but not the parent: it does not join.
    await tagChannel("POST", smoke, "narrowed")
    await writeB(gateway.call, lamp, on)
    expect(await client.next()).toEqual({ Value: { from: lamp, value: on } })
    await tagChannel("DELETE", lamp, "narrowed")
    expect(await client.next()).toEqual({ GetRemoved: lamp })
    await tagChannel("DELETE", smoke, "narrowed")
    await client.close()
  })
})
