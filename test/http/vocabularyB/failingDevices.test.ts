import { describe, expect, it } from "vitest"
import { sharedGateway } from "../../support/hookedGateway.ts"
import { T, troubledDeviceTimeoutMs, troubledHome } from "./homes.ts"

/**
 * A device that fails every call and one that never answers (docs/simulator.md `fail`): their
 * channels answer InternalError in the result maps of fetch_values and send_values (docs/reference.md §6.4), and the
 * channels of healthy devices are read and written as if nothing were wrong.
 */

describe("devices that fail or do not answer", () => {
  const { call } = sharedGateway(troubledHome, { deviceTimeoutMs: troubledDeviceTimeoutMs })

  it("answers InternalError for the getters of a failing device and of a hung one, and the values of the others", async () => {
    expect(await call("GET", "/api/v1/channels/get")).toEqual({
      status: 200,
      body: {
        "getter:lamp-on@b": { OnOff: "On" },
        "getter:siren-on@b": { Error: { InternalError: "service:siren@b failed (simulated \"fail\": \"error\")" } },
        "getter:sleepy-motion@b": { Error: { InternalError: `device did not answer within ${troubledDeviceTimeoutMs} ms` } }
      }
    })
  })

  it("answers InternalError for the setters of a failing device and of a hung one, and writes the others", async () => {
    expect(await call("PUT", "/api/v1/channels/set", { select: {}, value: { OnOff: "Off" } })).toEqual({
      status: 200,
      body: {
        "setter:lamp-on@b": null,
        "setter:siren-on@b": { Error: { InternalError: "service:siren@b failed (simulated \"fail\": \"error\")" } },
        "setter:sleepy-chime@b": { Error: { InternalError: `device did not answer within ${troubledDeviceTimeoutMs} ms` } }
      }
    })
    expect(await call("GET", "/api/v1/channels/get", { id: "getter:lamp-on@b" })).toEqual({
      status: 200,
      body: { "getter:lamp-on@b": { OnOff: "Off" } }
    })
  })

  it("leaves `updated` unset on setters whose device failed", async () => {
    await call("PUT", "/api/v1/channels/set", { select: { kind: "OnOff" }, value: { OnOff: "On" } })
    const reply = await call("GET", "/api/v1/channels/setters")
    expect(reply.status).toBe(200)
    expect((reply.body as ReadonlyArray<{ id: string; updated: unknown }>).map(({ id, updated }) => ({ id, updated }))).toEqual([
      { id: "setter:lamp-on@b", updated: T },
      { id: "setter:siren-on@b", updated: null },
      { id: "setter:sleepy-chime@b", updated: null }
    ])
  })

  it("answers a TypeError before calling any device: the value never reaches it", async () => {
    expect(await call("PUT", "/api/v1/channels/set", { select: {}, value: { String: "ring" } })).toEqual({
      status: 200,
      body: {
        "setter:lamp-on@b": { Error: { TypeError: { expected: "OnOff", got: "String" } } },
        "setter:siren-on@b": { Error: { TypeError: { expected: "OnOff", got: "String" } } },
        "setter:sleepy-chime@b": { Error: { TypeError: { expected: "OnOff", got: "String" } } }
      }
    })
  })
})
