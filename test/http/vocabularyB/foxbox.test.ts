import { describe, expect, it } from "vitest"
import { freshGateway } from "../../support/hookedGateway.ts"
import { getters, home, services } from "./homes.ts"

/**
 * Requests as FoxBox clients sent them (docs/reference.md §1, history): vocabulary B is the API FoxBox
 * served, and its clients keep working unchanged, aliases and all.
 */

describe("requests of FoxBox-era clients", () => {
  const { call } = freshGateway(home)

  it("POST /api/v1/services with a ServiceSelector on getters of a kind", async () => {
    expect(await call("POST", "/api/v1/services", "{\"getters\":[{\"kind\":\"OpenClosed\"}]}")).toEqual({
      status: 200,
      body: [services.frontDoor]
    })
  })

  it("POST /api/v1/channels/getters with a list of kinds", async () => {
    const body = "[{\"kind\":\"CurrentTimeOfDay\"},{\"kind\":\"OpenClosed\"},{\"kind\":\"DoorLocked\"}]"
    expect(await call("POST", "/api/v1/channels/getters", body)).toEqual({
      status: 200,
      body: [getters.frontDoorLock, getters.frontDoor, getters.gardenTime]
    })
  })

  it("PUT /api/v1/channels/get with a getter id", async () => {
    expect(await call("PUT", "/api/v1/channels/get", "[{\"id\": \"getter:front-door@b\"}]")).toEqual({
      status: 200,
      body: { "getter:front-door@b": { OpenClosed: "Closed" } }
    })
  })

  it("PUT /api/v1/channels/set with the pair [[selector], value]", async () => {
    expect(await call("PUT", "/api/v1/channels/set", "[[{\"id\": \"setter:porch-light-on@b\"}], {\"OnOff\": \"On\"}]")).toEqual({
      status: 200,
      body: { "setter:porch-light-on@b": null }
    })
    expect(await call("PUT", "/api/v1/channels/get", [{ id: "getter:porch-light-on@b" }])).toEqual({
      status: 200,
      body: { "getter:porch-light-on@b": { OnOff: "On" } }
    })
  })

  it("PUT /api/v1/channels/set with targets, one selecting by ids and one by kind with a Unit value", async () => {
    const body = "[{\"select\":[{\"id\":\"setter:porch-light-on@b\"},{\"id\":\"setter:kitchen-light-on@b\"}]," +
      "\"value\":{\"OnOff\":\"On\"}},{\"select\":{\"kind\":\"Ready\"},\"value\":{\"Unit\":null}}]"
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 200,
      body: {
        "setter:doorbell-chime@b": null,
        "setter:kitchen-light-on@b": null,
        "setter:porch-light-on@b": null
      }
    })
    expect(await call("PUT", "/api/v1/channels/get", [{ kind: "OnOff" }])).toEqual({
      status: 200,
      body: { "getter:kitchen-light-on@b": { OnOff: "On" }, "getter:porch-light-on@b": { OnOff: "On" } }
    })
  })

  it("PUT /api/v1/channels/set with a list of pairs [[{\"id\": S}, V]] and [[[{\"id\": S}], V]]", async () => {
    const lock = "[[{\"id\": \"setter:front-door-lock@b\"}, {\"DoorLocked\": \"Unlocked\"}]]"
    expect(await call("PUT", "/api/v1/channels/set", lock)).toEqual({ status: 200, body: { "setter:front-door-lock@b": null } })
    const light = "[[[{\"id\": \"setter:porch-light-on@b\"}], {\"OnOff\": \"On\"}]," +
      "{\"select\": {\"id\": \"setter:kitchen-light-on@b\"}, \"value\": {\"OnOff\": \"Off\"}}]"
    expect(await call("PUT", "/api/v1/channels/set", light)).toEqual({
      status: 200,
      body: { "setter:kitchen-light-on@b": null, "setter:porch-light-on@b": null }
    })
    expect(await call("PUT", "/api/v1/channels/get", [{ kind: "DoorLocked" }, { id: "getter:porch-light-on@b" }, { id: "getter:kitchen-light-on@b" }]))
      .toEqual({
        status: 200,
        body: {
          "getter:front-door-lock@b": { DoorLocked: "Unlocked" },
          "getter:kitchen-light-on@b": { OnOff: "Off" },
          "getter:porch-light-on@b": { OnOff: "On" }
        }
      })
  })

  it("PUT /api/v1/channels/set with {\"Unit\": \"\"}, the default argument of FoxBox clients", async () => {
    const body = "[[{\"id\": \"setter:doorbell-chime@b\"}, {\"Unit\": \"\"}]]"
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({ status: 200, body: { "setter:doorbell-chime@b": null } })
  })

  it("reads an id or a kind sent as null as absent, but not a list: lists are arrays (docs/reference.md §4)", async () => {
    const body = "{\"id\": null, \"getters\": [{\"kind\": \"OpenClosed\", \"id\": null, \"service\": null}]}"
    expect(await call("POST", "/api/v1/services", body)).toEqual({ status: 200, body: [services.frontDoor] })
    expect(await call("POST", "/api/v1/services", "{\"setters\": null}")).toEqual({
      status: 400,
      body: "body.setters: expected an array of SetterSelectors, got null"
    })
  })
})
