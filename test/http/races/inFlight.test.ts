import { writeFileSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { eventuallyAsync, pause } from "../../support/eventually.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"

/**
 * Reads, writes and home-file saves that overlap, on a gateway over HTTP whose slow device takes
 * `latency_ms` to answer: what each answers, and what the channels say afterwards.
 */

const SLOW_MS = 1_200

const lamp = (local: string, options: { readonly kind?: string; readonly latency?: number; readonly name?: string } = {}) => {
  const kind = options.kind ?? "OnOff"
  const initial = kind === "OnOff" ? { OnOff: "Off" } : { OpenClosed: "Closed" }
  return {
    id: `service:${local}@sim`,
    tags: ["entrance"],
    properties: { name: options.name ?? local },
    latency_ms: options.latency ?? 0,
    getters: [{ id: `getter:${local}@sim`, kind, value: initial }],
    setters: [{ id: `setter:${local}@sim`, kind, drives: `getter:${local}@sim` }]
  }
}
const home = (...services: ReadonlyArray<object>) => ({ services })

let gateway: GatewayOverHttp | undefined
const start = async (initial: object) => {
  gateway = await startGateway(initial)
  return gateway
}
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})

/** The home file saved as an editor would, and the gateway seen to have taken it. */
const save = async (g: GatewayOverHttp, next: object, taken: (services: unknown) => boolean) => {
  writeFileSync(g.homeFile, JSON.stringify(next, null, 2))
  const seen = await eventuallyAsync(() => g.call("GET", "/api/v1/services"), (reply) => taken(reply.json))
  expect(taken(seen.json)).toBe(true)
}

const updated = async (g: GatewayOverHttp, id: string) => {
  const reply = await g.call("GET", "/api/v1/channels/getters", { id })
  return (reply.json as ReadonlyArray<{ readonly updated: string | null }>)[0]?.updated
}

describe("a read that ends after a write", () => {
  it("does not take back the value written meanwhile, nor move `updated`", async () => {
    const g = await start(home(lamp("fast"), lamp("slow", { latency: SLOW_MS })))
    const read = g.call("PUT", "/api/v1/channels/get", [{ id: "getter:fast@sim" }, { id: "getter:slow@sim" }])
    await pause(200)
    expect((await g.call("PUT", "/api/v1/channels/set", { select: { id: "setter:fast@sim" }, value: { OnOff: "On" } })).json)
      .toEqual({ "setter:fast@sim": null })
    const written = await updated(g, "getter:fast@sim")
    expect(written).toEqual(expect.any(String))

    // The read answers what the device said when it was asked, before the write…
    expect((await read).json).toEqual({ "getter:fast@sim": { OnOff: "Off" }, "getter:slow@sim": { OnOff: "Off" } })
    // …and the channel still holds the newer value, changed once.
    expect(await updated(g, "getter:fast@sim")).toBe(written)
    expect((await g.call("PUT", "/api/v1/channels/get", { id: "getter:fast@sim" })).json).toEqual({ "getter:fast@sim": { OnOff: "On" } })
    expect(await updated(g, "getter:fast@sim")).toBe(written)
  })
})

describe("a write in flight when the home file changes", () => {
  const write = (g: GatewayOverHttp) =>
    g.call("PUT", "/api/v1/channels/set", { select: { id: "setter:slow@sim" }, value: { OnOff: "On" } })

  it("is a TypeError when the setter's kind changed, and nothing of the old type is taken", async () => {
    const g = await start(home(lamp("slow", { latency: SLOW_MS })))
    const pending = write(g)
    await pause(100)
    await save(g, home(lamp("slow", { latency: SLOW_MS, kind: "OpenClosed" })), (services) => JSON.stringify(services).includes("OpenClosed"))

    expect((await pending).json).toEqual({ "setter:slow@sim": { Error: { TypeError: { expected: "OpenClosed", got: "OnOff" } } } })
    expect((await g.call("PUT", "/api/v1/channels/get", { id: "getter:slow@sim" })).json)
      .toEqual({ "getter:slow@sim": { OpenClosed: "Closed" } })
    expect((await g.call("GET", "/api/v1/channels/value", [{ id: { Exactly: "getter:slow@sim" } }])).json)
      .toEqual([["getter:slow@sim", { Ok: { OpenClosed: "Closed" } }]])
  })

  it("is a NoSuchSetter when the setter left, and nothing is written", async () => {
    const g = await start(home(lamp("slow", { latency: SLOW_MS })))
    const pending = write(g)
    await pause(100)
    const withoutSetter = { ...lamp("slow", { latency: SLOW_MS }), setters: [] }
    await save(g, home(withoutSetter), (services) => !JSON.stringify(services).includes("setter:slow@sim"))

    expect((await pending).json).toEqual({ "setter:slow@sim": { Error: { NoSuchSetter: "setter:slow@sim" } } })
    expect((await g.call("PUT", "/api/v1/channels/get", { id: "getter:slow@sim" })).json).toEqual({ "getter:slow@sim": { OnOff: "Off" } })
  })

  it("is a NoSuchSetter when its whole service left", async () => {
    const g = await start(home(lamp("slow", { latency: SLOW_MS }), lamp("other")))
    const pending = write(g)
    await pause(100)
    await save(g, home(lamp("other")), (services) => !JSON.stringify(services).includes("service:slow@sim"))

    expect((await pending).json).toEqual({ "setter:slow@sim": { Error: { NoSuchSetter: "setter:slow@sim" } } })
  })

  it("a read in flight is a NoSuchGetter when the getter left", async () => {
    const g = await start(home(lamp("slow", { latency: SLOW_MS })))
    const pending = g.call("PUT", "/api/v1/channels/get", { id: "getter:slow@sim" })
    await pause(100)
    await save(g, home({ ...lamp("slow", { latency: SLOW_MS }), getters: [], setters: [] }), (services) =>
      !JSON.stringify(services).includes("getter:slow@sim"))

    expect((await pending).json).toEqual({ "getter:slow@sim": { Error: { NoSuchGetter: "getter:slow@sim" } } })
  })
})

describe("a declared tag a client removed", () => {
  it("stays away when the home file is saved with an unrelated change", async () => {
    const g = await start(home(lamp("hall")))
    expect((await g.call("DELETE", "/api/v1/services/tag", { services: { id: "service:hall@sim" }, tags: ["entrance"] })).json).toBe(1)
    await save(g, home(lamp("hall", { name: "Hall lamp" })), (services) => JSON.stringify(services).includes("Hall lamp"))

    const [service] = (await g.call("GET", "/api/v1/services", { id: "service:hall@sim" })).json as ReadonlyArray<{ tags: unknown }>
    expect(service?.tags).toEqual([])
  })

  it("comes back when the device leaves and connects again", async () => {
    const g = await start(home(lamp("hall")))
    await g.call("DELETE", "/api/v1/services/tag", { services: { id: "service:hall@sim" }, tags: ["entrance"] })
    await save(g, home(), (services) => !JSON.stringify(services).includes("service:hall@sim"))
    await save(g, home(lamp("hall")), (services) => JSON.stringify(services).includes("service:hall@sim"))

    const [service] = (await g.call("GET", "/api/v1/services", { id: "service:hall@sim" })).json as ReadonlyArray<{ tags: unknown }>
    expect(service?.tags).toEqual(["entrance"])
  })
})
