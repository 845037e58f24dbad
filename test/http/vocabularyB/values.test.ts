import { describe, expect, it } from "vitest"
import { freshGateway, sharedGateway } from "../../support/hookedGateway.ts"
import { getters, home, initialValues, setters, sprinklerOn, T, windSpeedValue } from "./homes.ts"

/** fetch_values and send_values over HTTP (docs/reference.md §6.4 result maps and per-channel errors, §9). */

describe("fetch_values (GET /api/v1/channels/get, alias PUT and POST)", () => {
  const { call } = sharedGateway(home)

  it("answers every getter's value keyed by id, null for a getter with no value yet, when called with no body", async () => {
    expect(await call("GET", "/api/v1/channels/get")).toEqual({ status: 200, body: initialValues })
  })

  it("answers the same to PUT and to POST", async () => {
    expect(await call("PUT", "/api/v1/channels/get")).toEqual({ status: 200, body: initialValues })
    expect(await call("POST", "/api/v1/channels/get", {})).toEqual({ status: 200, body: initialValues })
    expect(await call("PUT", "/api/v1/channels/get", [{ kind: "Ready" }])).toEqual({
      status: 200,
      body: { "getter:doorbell-pressed@b": null }
    })
  })

  it("answers {} for [] and every value for {}", async () => {
    expect(await call("GET", "/api/v1/channels/get", [])).toEqual({ status: 200, body: {} })
    expect(await call("GET", "/api/v1/channels/get", {})).toEqual({ status: 200, body: initialValues })
  })

  it("reads only the getters the selectors match: by id, kind, tags, service and service tags", async () => {
    expect(await call("GET", "/api/v1/channels/get", { id: "getter:wind-speed@b" })).toEqual({
      status: 200,
      body: { "getter:wind-speed@b": windSpeedValue }
    })
    expect(await call("GET", "/api/v1/channels/get", [{ kind: "OnOff" }, { tags: ["contact"] }])).toEqual({
      status: 200,
      body: {
        "getter:front-door@b": { OpenClosed: "Closed" },
        "getter:kitchen-light-on@b": { OnOff: "On" },
        "getter:porch-light-on@b": { OnOff: "Off" }
      }
    })
    expect(await call("GET", "/api/v1/channels/get", { service: "service:thermostat@b", kind: "ActualTemperature" })).toEqual({
      status: 200,
      body: { "getter:living-room-temperature@b": { Temperature: { F: 68.9 } } }
    })
    expect(await call("GET", "/api/v1/channels/get", { service_tags: ["entrance"], tags: ["main"] })).toEqual({
      status: 200,
      body: { "getter:front-door-lock@b": { DoorLocked: "Locked" } }
    })
  })

  it("answers {\"Error\": {\"NoSuchGetter\": id}} for an id that names no getter", async () => {
    expect(await call("GET", "/api/v1/channels/get", { id: "getter:nowhere@b" })).toEqual({
      status: 200,
      body: { "getter:nowhere@b": { Error: { NoSuchGetter: "getter:nowhere@b" } } }
    })
  })

  it("answers NoSuchGetter for the id of a setter", async () => {
    expect(await call("GET", "/api/v1/channels/get", [{ id: "setter:porch-light-on@b" }])).toEqual({
      status: 200,
      body: { "setter:porch-light-on@b": { Error: { NoSuchGetter: "setter:porch-light-on@b" } } }
    })
  })

  it("answers {\"Error\": {\"NoSuchService\": id}} keyed by the service id for a service that is not there", async () => {
    expect(await call("GET", "/api/v1/channels/get", { service: "service:nowhere@b", kind: "OnOff" })).toEqual({
      status: 200,
      body: { "service:nowhere@b": { Error: { NoSuchService: "service:nowhere@b" } } }
    })
  })

  it("answers the errors beside the values of the getters that exist", async () => {
    const body = [{ id: "getter:nowhere@b" }, { service: "service:porch-light@b" }, { service: "service:nowhere@b" }]
    expect(await call("GET", "/api/v1/channels/get", body)).toEqual({
      status: 200,
      body: {
        "getter:nowhere@b": { Error: { NoSuchGetter: "getter:nowhere@b" } },
        "getter:porch-light-on@b": { OnOff: "Off" },
        "service:nowhere@b": { Error: { NoSuchService: "service:nowhere@b" } }
      }
    })
  })

  it("keys the result map by any id, `__proto__` included", async () => {
    const reply = await call("GET", "/api/v1/channels/get", { id: "__proto__" })
    expect(reply).toEqual({
      status: 200,
      body: Object.fromEntries([["__proto__", { Error: { NoSuchGetter: "__proto__" } }]])
    })
    expect(Object.keys(reply.body as object)).toEqual(["__proto__"])
  })

  it("answers {} for a selector that matches nothing without naming anything missing", async () => {
    expect(await call("GET", "/api/v1/channels/get", { kind: "Password" })).toEqual({ status: 200, body: {} })
  })
})

describe("send_values (PUT /api/v1/channels/set)", () => {
  const { call } = freshGateway(home)
  const fetch = async (body: unknown) => (await call("GET", "/api/v1/channels/get", body)).body

  it("writes {\"select\": sel, \"value\": V}, answers null per setter written, and a following fetch shows the value", async () => {
    expect(await call("PUT", "/api/v1/channels/set", { select: { id: "setter:porch-light-on@b" }, value: { OnOff: "On" } })).toEqual({
      status: 200,
      body: { "setter:porch-light-on@b": null }
    })
    expect(await fetch({ id: "getter:porch-light-on@b" })).toEqual({ "getter:porch-light-on@b": { OnOff: "On" } })
  })

  it("writes every setter a selector matches, the selectors ORed", async () => {
    const body = { select: [{ kind: "OnOff" }, { service: "service:kitchen-light@b", kind: "OnOff" }], value: { OnOff: "Off" } }
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 200,
      body: { "setter:kitchen-light-on@b": null, "setter:porch-light-on@b": null }
    })
    expect(await fetch({ kind: "OnOff" })).toEqual({
      "getter:kitchen-light-on@b": { OnOff: "Off" },
      "getter:porch-light-on@b": { OnOff: "Off" }
    })
  })

  it("writes an array of targets, each with its own value", async () => {
    const body = [
      { select: { id: "setter:front-door-lock@b" }, value: { DoorLocked: "Unlocked" } },
      { select: [{ kind: "LightColor" }], value: { Color: { h: 400, s: 1, v: 0.25 } } },
      { select: { kind: "Thermostat" }, value: { Temperature: { F: 70.7 } } }
    ]
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 200,
      body: {
        "setter:front-door-lock@b": null,
        "setter:kitchen-light-color@b": null,
        "setter:thermostat-target@b": null
      }
    })
    expect(await fetch([{ id: "getter:front-door-lock@b" }, { id: "getter:kitchen-light-color@b" }, { kind: "Thermostat" }])).toEqual({
      "getter:front-door-lock@b": { DoorLocked: "Unlocked" },
      // A hue is taken mod 360.
      "getter:kitchen-light-color@b": { Color: { h: 40, s: 1, v: 0.25 } },
      "getter:thermostat-target@b": { Temperature: { F: 70.7 } }
    })
  })

  it("writes the pair [sel(s), V]", async () => {
    expect(await call("PUT", "/api/v1/channels/set", [{ id: "setter:kitchen-light-on@b" }, { OnOff: "Off" }])).toEqual({
      status: 200,
      body: { "setter:kitchen-light-on@b": null }
    })
    expect(await call("PUT", "/api/v1/channels/set", [[{ id: "setter:porch-light-on@b" }], { OnOff: "On" }])).toEqual({
      status: 200,
      body: { "setter:porch-light-on@b": null }
    })
    expect(await fetch({ kind: "OnOff" })).toEqual({
      "getter:kitchen-light-on@b": { OnOff: "Off" },
      "getter:porch-light-on@b": { OnOff: "On" }
    })
  })

  it("sets the setter's `updated`, and the driven getter's value and `updated`", async () => {
    expect(await call("GET", "/api/v1/channels/setters", { id: "setter:sprinkler@b" })).toEqual({
      status: 200,
      body: [setters.sprinkler]
    })
    expect(await call("GET", "/api/v1/channels/getters", { id: "getter:sprinkler-running@b" })).toEqual({
      status: 200,
      body: [getters.sprinklerRunning]
    })
    expect(await call("PUT", "/api/v1/channels/set", { select: { id: "setter:sprinkler@b" }, value: sprinklerOn })).toEqual({
      status: 200,
      body: { "setter:sprinkler@b": null }
    })
    expect(await call("GET", "/api/v1/channels/setters", { id: "setter:sprinkler@b" })).toEqual({
      status: 200,
      body: [{ ...setters.sprinkler, updated: T }]
    })
    expect(await call("GET", "/api/v1/channels/getters", { id: "getter:sprinkler-running@b" })).toEqual({
      status: 200,
      body: [{ ...getters.sprinklerRunning, updated: T }]
    })
    expect(await fetch({ id: "getter:sprinkler-running@b" })).toEqual({ "getter:sprinkler-running@b": sprinklerOn })
  })

  it("takes {\"Unit\": null}, {\"Unit\": []}, {\"Unit\": {}} and bare null for a Unit kind", async () => {
    for (const value of [{ Unit: null }, { Unit: [] }, { Unit: {} }, null]) {
      expect(await call("PUT", "/api/v1/channels/set", { select: { service: "service:doorbell@b" }, value })).toEqual({
        status: 200,
        body: { "setter:doorbell-chime@b": null, "setter:doorbell-snapshot@b": null }
      })
    }
  })

  it("answers a TypeError naming the value types for a setter of another type, and still writes the others", async () => {
    const body = [
      { select: { kind: "OnOff" }, value: { OnOff: "On" } },
      { select: [{ id: "setter:thermostat-target@b" }, { id: "setter:doorbell-chime@b" }], value: { Temperature: { C: 25 } } }
    ]
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 200,
      body: {
        "setter:doorbell-chime@b": { Error: { TypeError: { expected: "Unit", got: "Temperature" } } },
        "setter:kitchen-light-on@b": null,
        "setter:porch-light-on@b": null,
        "setter:thermostat-target@b": null
      }
    })
    expect(await fetch([{ kind: "OnOff" }, { kind: "Thermostat" }])).toEqual({
      "getter:kitchen-light-on@b": { OnOff: "On" },
      "getter:porch-light-on@b": { OnOff: "On" },
      "getter:thermostat-target@b": { Temperature: { C: 25 } }
    })
  })

  it("names extension types in a TypeError", async () => {
    const body = { select: { id: "setter:sprinkler@b" }, value: { OnOff: "On" } }
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 200,
      body: { "setter:sprinkler@b": { Error: { TypeError: { expected: "ExtBool", got: "OnOff" } } } }
    })
  })

  it("writes the last value when one request addresses a setter twice", async () => {
    const body = [
      { select: { id: "setter:porch-light-on@b" }, value: { OnOff: "On" } },
      { select: { tags: ["main"] }, value: { OnOff: "Off" } },
      { select: { service: "service:kitchen-light@b", kind: "OnOff" }, value: { OnOff: "Off" } },
      { select: { kind: "OnOff" }, value: { OnOff: "On" } }
    ]
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 200,
      body: { "setter:kitchen-light-on@b": null, "setter:porch-light-on@b": null }
    })
    expect(await fetch({ kind: "OnOff" })).toEqual({
      "getter:kitchen-light-on@b": { OnOff: "On" },
      "getter:porch-light-on@b": { OnOff: "On" }
    })
    await call("PUT", "/api/v1/channels/set", [
      { select: { kind: "OnOff" }, value: { OnOff: "On" } },
      { select: { id: "setter:porch-light-on@b" }, value: { OnOff: "Off" } }
    ])
    expect(await fetch({ kind: "OnOff" })).toEqual({
      "getter:kitchen-light-on@b": { OnOff: "On" },
      "getter:porch-light-on@b": { OnOff: "Off" }
    })
  })

  it("writes the last value even when an earlier value for the setter had the wrong type", async () => {
    const body = [
      { select: { id: "setter:porch-light-on@b" }, value: { Unit: null } },
      { select: { id: "setter:porch-light-on@b" }, value: { OnOff: "On" } }
    ]
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({ status: 200, body: { "setter:porch-light-on@b": null } })
    expect(await fetch({ id: "getter:porch-light-on@b" })).toEqual({ "getter:porch-light-on@b": { OnOff: "On" } })
  })

  it("answers the last value's TypeError, and writes nothing, when the last value for a setter has the wrong type", async () => {
    const body = [
      { select: { id: "setter:porch-light-on@b" }, value: { OnOff: "On" } },
      { select: { id: "setter:porch-light-on@b" }, value: { Unit: null } }
    ]
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 200,
      body: { "setter:porch-light-on@b": { Error: { TypeError: { expected: "OnOff", got: "Unit" } } } }
    })
    expect(await fetch({ id: "getter:porch-light-on@b" })).toEqual({ "getter:porch-light-on@b": { OnOff: "Off" } })
  })

  it("answers NoSuchSetter for an id that names no setter, the id of a getter included, and writes the rest", async () => {
    const body = {
      select: [{ id: "setter:nowhere@b" }, { id: "getter:porch-light-on@b" }, { id: "setter:porch-light-on@b" }],
      value: { OnOff: "On" }
    }
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 200,
      body: {
        "getter:porch-light-on@b": { Error: { NoSuchSetter: "getter:porch-light-on@b" } },
        "setter:nowhere@b": { Error: { NoSuchSetter: "setter:nowhere@b" } },
        "setter:porch-light-on@b": null
      }
    })
    expect(await fetch({ id: "getter:porch-light-on@b" })).toEqual({ "getter:porch-light-on@b": { OnOff: "On" } })
  })

  it("answers NoSuchService keyed by the service id for a service that is not there", async () => {
    expect(await call("PUT", "/api/v1/channels/set", { select: { service: "service:nowhere@b" }, value: { OnOff: "On" } })).toEqual({
      status: 200,
      body: { "service:nowhere@b": { Error: { NoSuchService: "service:nowhere@b" } } }
    })
  })

  it("answers {} when nothing is selected", async () => {
    expect(await call("PUT", "/api/v1/channels/set", [])).toEqual({ status: 200, body: {} })
    expect(await call("PUT", "/api/v1/channels/set", { select: [], value: { OnOff: "On" } })).toEqual({ status: 200, body: {} })
    expect(await call("PUT", "/api/v1/channels/set", { select: { kind: "Password" }, value: { String: "x" } })).toEqual({
      status: 200,
      body: {}
    })
  })

  it("is a 400 without a body, and writes nothing", async () => {
    expect(await call("PUT", "/api/v1/channels/set")).toEqual({ status: 400, body: "body: required, a JSON document" })
    expect(await call("GET", "/api/v1/channels/get")).toEqual({ status: 200, body: initialValues })
  })
})
