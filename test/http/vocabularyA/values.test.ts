import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { exchange, started } from "./exchange.ts"
import { home, outputs, T, troubledDeviceTimeoutMs, troubledHome, windSpeedValue } from "./homes.ts"

/** get_channel_value and put_channel_value over HTTP (docs/reference.md §6.3, §6.4). */

describe("get_channel_value (GET /api/v1/channels/value)", () => {
  let gateway: GatewayOverHttp | undefined
  beforeAll(async () => {
    gateway = await startGateway(home)
  })
  afterAll(() => gateway?.close())
  const call = exchange(() => started(gateway))

  it("answers [id, {\"Ok\": V}] for every input channel, sorted by id, when called with no body", async () => {
    expect(await call("GET", "/api/v1/channels/value")).toEqual({
      status: 200,
      body: [
        ["getter:back-door-lock@test", { Ok: { DoorLocked: "Locked" } }],
        ["getter:back-door@test", { Ok: { OpenClosed: "Closed" } }],
        ["getter:porch-light-on@test", { Ok: { OnOff: "Off" } }],
        ["getter:wind-gauge-ready@test", { Ok: null }],
        ["getter:wind-speed@test", { Ok: windSpeedValue }]
      ]
    })
  })

  it("answers {\"Ok\": null} for a channel that has no value yet", async () => {
    expect(await call("GET", "/api/v1/channels/value", [{ kind: { Exactly: { Ready: [] } } }])).toEqual({
      status: 200,
      body: [["getter:wind-gauge-ready@test", { Ok: null }]]
    })
  })

  it("answers [] for [] and reads only the channels the selectors match", async () => {
    expect(await call("GET", "/api/v1/channels/value", [])).toEqual({ status: 200, body: [] })
    expect(await call("GET", "/api/v1/channels/value", [{ tags: ["main"] }])).toEqual({
      status: 200,
      body: [
        ["getter:back-door-lock@test", { Ok: { DoorLocked: "Locked" } }],
        ["getter:porch-light-on@test", { Ok: { OnOff: "Off" } }]
      ]
    })
  })

  it("answers {\"Err\": {\"NoSuchGet\": id}} for an id that names no input channel", async () => {
    expect(await call("GET", "/api/v1/channels/value", [{ id: { Exactly: "getter:nowhere@test" } }])).toEqual({
      status: 200,
      body: [["getter:nowhere@test", { Err: { NoSuchGet: "getter:nowhere@test" } }]]
    })
  })

  it("answers NoSuchGet for the id of an output channel", async () => {
    expect(await call("GET", "/api/v1/channels/value", [{ id: { Exactly: "setter:porch-light-on@test" } }])).toEqual({
      status: 200,
      body: [["setter:porch-light-on@test", { Err: { NoSuchGet: "setter:porch-light-on@test" } }]]
    })
  })

  it("answers {\"Err\": {\"NoSuchNode\": id}} keyed by the node id for a parent that names no node", async () => {
    expect(await call("GET", "/api/v1/channels/value", [{ parent: { Exactly: "service:nowhere@test" } }])).toEqual({
      status: 200,
      body: [["service:nowhere@test", { Err: { NoSuchNode: "service:nowhere@test" } }]]
    })
  })

  it("reports nothing missing for a selector that matches nothing: {\"Conflict\": []} names no channel", async () => {
    const body = [
      { id: { Exactly: "getter:nowhere@test" }, kind: { Conflict: [] } },
      { id: { Conflict: [] }, parent: { Exactly: "service:nowhere@test" } }
    ]
    expect(await call("GET", "/api/v1/channels/value", body)).toEqual({ status: 200, body: [] })
  })

  it("answers the errors beside the values of the channels that exist", async () => {
    const body = [{ id: { Exactly: "getter:nowhere@test" } }, { parent: { Exactly: "service:porch-light@test" } }]
    expect(await call("GET", "/api/v1/channels/value", body)).toEqual({
      status: 200,
      body: [
        ["getter:nowhere@test", { Err: { NoSuchGet: "getter:nowhere@test" } }],
        ["getter:porch-light-on@test", { Ok: { OnOff: "Off" } }]
      ]
    })
  })
})

describe("put_channel_value (POST /api/v1/channels/value)", () => {
  // Each test writes to its own fresh gateway.
  let gateway: GatewayOverHttp | undefined
  beforeEach(async () => {
    gateway = await startGateway(home)
  })
  afterEach(() => gateway?.close())
  const call = exchange(() => started(gateway))
  const porchLight = [{ id: { Exactly: "getter:porch-light-on@test" } }]

  it("takes the pair [[SetSelector], V] and answers [id, {\"Ok\": null}] per output written", async () => {
    const body = [[{ id: { Exactly: "setter:porch-light-on@test" } }], { OnOff: "On" }]
    expect(await call("POST", "/api/v1/channels/value", body)).toEqual({
      status: 200,
      body: [["setter:porch-light-on@test", { Ok: null }]]
    })
    expect(await call("GET", "/api/v1/channels/value", porchLight)).toEqual({
      status: 200,
      body: [["getter:porch-light-on@test", { Ok: { OnOff: "On" } }]]
    })
  })

  it("takes the object {\"set\": [SetSelector], \"value\": V} with the same meaning", async () => {
    const body = { set: [{ kind: { Exactly: { OnOff: [] } } }], value: { OnOff: "On" } }
    expect(await call("POST", "/api/v1/channels/value", body)).toEqual({
      status: 200,
      body: [["setter:porch-light-on@test", { Ok: null }]]
    })
    expect(await call("GET", "/api/v1/channels/value", porchLight)).toEqual({
      status: 200,
      body: [["getter:porch-light-on@test", { Ok: { OnOff: "On" } }]]
    })
  })

  it("marks a written output as updated", async () => {
    await call("POST", "/api/v1/channels/value", [[{ tags: ["main"] }], { OnOff: "On" }])
    expect(await call("GET", "/api/v1/channels/outputs")).toEqual({
      status: 200,
      body: [
        outputs.backDoorLock,
        { ...outputs.porchLightOn, mechanism: { Set: { kind: { OnOff: [] }, push: [0], updated: T } } }
      ]
    })
  })

  it("answers {\"Err\": {\"TypeError\": []}} for an output of another type and still writes the others", async () => {
    const body = [[{ parent: { Exactly: "service:back-door@test" } }, { tags: ["main"] }], { DoorLocked: "Unlocked" }]
    expect(await call("POST", "/api/v1/channels/value", body)).toEqual({
      status: 200,
      body: [
        ["setter:back-door-lock@test", { Ok: null }],
        ["setter:porch-light-on@test", { Err: { TypeError: [] } }]
      ]
    })
    expect(await call("GET", "/api/v1/channels/value", [{ parent: { Exactly: "service:back-door@test" } }, ...porchLight]))
      .toEqual({
        status: 200,
        body: [
          ["getter:back-door-lock@test", { Ok: { DoorLocked: "Unlocked" } }],
          ["getter:back-door@test", { Ok: { OpenClosed: "Closed" } }],
          ["getter:porch-light-on@test", { Ok: { OnOff: "Off" } }]
        ]
      })
  })

  it("answers {\"Err\": {\"NoSuchSet\": id}} for an unknown id and for the id of an input channel", async () => {
    const body = {
      set: [{ id: { Exactly: "setter:nowhere@test" } }, { id: { Exactly: "getter:porch-light-on@test" } }],
      value: { OnOff: "On" }
    }
    expect(await call("POST", "/api/v1/channels/value", body)).toEqual({
      status: 200,
      body: [
        ["getter:porch-light-on@test", { Err: { NoSuchSet: "getter:porch-light-on@test" } }],
        ["setter:nowhere@test", { Err: { NoSuchSet: "setter:nowhere@test" } }]
      ]
    })
    expect(await call("GET", "/api/v1/channels/value", porchLight)).toEqual({
      status: 200,
      body: [["getter:porch-light-on@test", { Ok: { OnOff: "Off" } }]]
    })
  })

  it("answers {\"Err\": {\"NoSuchNode\": id}} for a parent that names no node", async () => {
    const body = [[{ parent: { Exactly: "service:nowhere@test" } }], { OnOff: "On" }]
    expect(await call("POST", "/api/v1/channels/value", body)).toEqual({
      status: 200,
      body: [["service:nowhere@test", { Err: { NoSuchNode: "service:nowhere@test" } }]]
    })
  })

  it("reports nothing missing for a selector that matches nothing, and writes nothing for it", async () => {
    const body = [[{ id: { Exactly: "setter:nowhere@test" }, parent: { Conflict: [] } }], { OnOff: "On" }]
    expect(await call("POST", "/api/v1/channels/value", body)).toEqual({ status: 200, body: [] })
  })

  it("writes an output matched by several selectors once", async () => {
    const body = [[{ tags: ["main"] }, { id: { Exactly: "setter:porch-light-on@test" } }], { OnOff: "On" }]
    expect(await call("POST", "/api/v1/channels/value", body)).toEqual({
      status: 200,
      body: [["setter:porch-light-on@test", { Ok: null }]]
    })
  })

  it("answers [] and writes nothing for []", async () => {
    expect(await call("POST", "/api/v1/channels/value", [[], { OnOff: "On" }])).toEqual({ status: 200, body: [] })
    expect(await call("GET", "/api/v1/channels/outputs")).toEqual({
      status: 200,
      body: [outputs.backDoorLock, outputs.porchLightOn]
    })
  })
})

describe("a device that fails or does not answer (InternalError)", () => {
  let gateway: GatewayOverHttp | undefined
  beforeAll(async () => {
    gateway = await startGateway(troubledHome, { deviceTimeoutMs: troubledDeviceTimeoutMs })
  })
  afterAll(() => gateway?.close())
  const call = exchange(() => started(gateway))
  const failed = { InternalError: "service:siren@test failed (simulated \"fail\": \"error\")" }
  const timedOut = { InternalError: `device did not answer within ${troubledDeviceTimeoutMs} ms` }

  it("answers {\"Err\": {\"InternalError\": message}} when a device fails a read", async () => {
    expect(await call("GET", "/api/v1/channels/value", [{ parent: { Exactly: "service:siren@test" } }])).toEqual({
      status: 200,
      body: [["getter:siren-on@test", { Err: failed }]]
    })
  })

  it("answers InternalError when a device fails a write", async () => {
    expect(await call("POST", "/api/v1/channels/value", [[{ id: { Exactly: "setter:siren-on@test" } }], { OnOff: "On" }]))
      .toEqual({ status: 200, body: [["setter:siren-on@test", { Err: failed }]] })
  })

  it("answers InternalError after the device timeout when a device does not answer a read or a write", async () => {
    expect(await call("GET", "/api/v1/channels/value", [{ id: { Exactly: "getter:sleepy-motion@test" } }])).toEqual({
      status: 200,
      body: [["getter:sleepy-motion@test", { Err: timedOut }]]
    })
    expect(await call("POST", "/api/v1/channels/value", { set: [{ id: { Exactly: "setter:sleepy-chime@test" } }], value: { OnOff: "On" } }))
      .toEqual({ status: 200, body: [["setter:sleepy-chime@test", { Err: timedOut }]] })
  })

  it("still answers the healthy devices of the same request", async () => {
    expect(await call("GET", "/api/v1/channels/value")).toEqual({
      status: 200,
      body: [
        ["getter:lamp-on@test", { Ok: { OnOff: "On" } }],
        ["getter:siren-on@test", { Err: failed }],
        ["getter:sleepy-motion@test", { Err: timedOut }]
      ]
    })
    expect(await call("POST", "/api/v1/channels/value", [[{}], { OnOff: "Off" }])).toEqual({
      status: 200,
      body: [
        ["setter:lamp-on@test", { Ok: null }],
        ["setter:siren-on@test", { Err: failed }],
        ["setter:sleepy-chime@test", { Err: timedOut }]
      ]
    })
    expect(await call("GET", "/api/v1/channels/value", [{ id: { Exactly: "getter:lamp-on@test" } }])).toEqual({
      status: 200,
      body: [["getter:lamp-on@test", { Ok: { OnOff: "Off" } }]]
    })
  })
})
