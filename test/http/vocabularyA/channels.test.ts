import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { exchange, started } from "./exchange.ts"
import { allInputs, allOutputs, home, inputs, outputs } from "./homes.ts"

/** get_input_channels, get_output_channels and the input/output tag operations over HTTP (docs/reference.md §6.3). */

describe("listing channels", () => {
  let gateway: GatewayOverHttp | undefined
  beforeAll(async () => {
    gateway = await startGateway(home)
  })
  afterAll(() => gateway?.close())
  const call = exchange(() => started(gateway))

  describe.each(["/api/v1/channels", "/api/v1/channels/inputs"])("get_input_channels (GET %s)", (path) => {
    it("answers every input channel, sorted by id, when called with no body", async () => {
      expect(await call("GET", path)).toEqual({ status: 200, body: allInputs })
    })

    it("answers every input channel for [{}] and none for []", async () => {
      expect(await call("GET", path, [{}])).toEqual({ status: 200, body: allInputs })
      expect(await call("GET", path, [])).toEqual({ status: 200, body: [] })
    })

    it("selects by id, parent, tags and kind, each field ANDed", async () => {
      expect(await call("GET", path, [{ id: { Exactly: "getter:back-door@test" } }])).toEqual({
        status: 200,
        body: [inputs.backDoor]
      })
      expect(await call("GET", path, [{ parent: { Exactly: "service:wind-gauge@test" } }])).toEqual({
        status: 200,
        body: [inputs.windGaugeReady, inputs.windSpeed]
      })
      expect(await call("GET", path, [{ tags: ["main"] }])).toEqual({
        status: 200,
        body: [inputs.backDoorLock, inputs.porchLightOn]
      })
      expect(await call("GET", path, [{ kind: { Exactly: { Ready: [] } } }])).toEqual({
        status: 200,
        body: [inputs.windGaugeReady]
      })
      expect(await call("GET", path, [{ parent: { Exactly: "service:back-door@test" }, tags: ["main"] }])).toEqual({
        status: 200,
        body: [inputs.backDoorLock]
      })
    })

    it("ORs the selectors of the array and lists each channel once", async () => {
      const body = [{ kind: { Exactly: { OnOff: [] } } }, { tags: ["main"] }, { id: { Exactly: "getter:back-door@test" } }]
      expect(await call("GET", path, body)).toEqual({
        status: 200,
        body: [inputs.backDoorLock, inputs.backDoor, inputs.porchLightOn]
      })
    })

    it("lists no output channel, even one named by its id", async () => {
      expect(await call("GET", path, [{ id: { Exactly: "setter:porch-light-on@test" } }])).toEqual({
        status: 200,
        body: []
      })
    })

    it("answers an empty list for an unknown id or parent: listing reports no errors", async () => {
      const body = [{ id: { Exactly: "getter:nowhere@test" } }, { parent: { Exactly: "service:nowhere@test" } }]
      expect(await call("GET", path, body)).toEqual({ status: 200, body: [] })
    })
  })

  describe("get_output_channels (GET /api/v1/channels/outputs)", () => {
    it("answers every output channel, with its Set mechanism and push, when called with no body", async () => {
      expect(await call("GET", "/api/v1/channels/outputs")).toEqual({ status: 200, body: allOutputs })
    })

    it("selects by kind and by parent", async () => {
      expect(await call("GET", "/api/v1/channels/outputs", [{ kind: { Exactly: { DoorLocked: [] } } }])).toEqual({
        status: 200,
        body: [outputs.backDoorLock]
      })
      expect(await call("GET", "/api/v1/channels/outputs", [{ parent: { Exactly: "service:porch-light@test" } }]))
        .toEqual({ status: 200, body: [outputs.porchLightOn] })
    })

    it("lists no input channel, even one named by its id", async () => {
      expect(await call("GET", "/api/v1/channels/outputs", [{ id: { Exactly: "getter:porch-light-on@test" } }]))
        .toEqual({ status: 200, body: [] })
    })

    it("reads {\"Conflict\": []} as matching nothing", async () => {
      expect(await call("GET", "/api/v1/channels/outputs", [{ kind: { Conflict: [] } }])).toEqual({
        status: 200,
        body: []
      })
    })
  })
})

describe("put and delete input and output tags (POST / DELETE /api/v1/channels/tag, A bodies)", () => {
  // Each test tags its own fresh gateway.
  let gateway: GatewayOverHttp | undefined
  beforeEach(async () => {
    gateway = await startGateway(home)
  })
  afterEach(() => gateway?.close())
  const call = exchange(() => started(gateway))

  it("tags inputs and outputs alike and answers how many channels matched", async () => {
    const body = { set: [{ parent: { Exactly: "service:porch-light@test" } }], tags: ["porch"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 2 })
    expect(await call("GET", "/api/v1/channels", [{ tags: ["porch"] }])).toEqual({
      status: 200,
      body: [{ ...inputs.porchLightOn, tags: ["main", "porch"] }]
    })
    expect(await call("GET", "/api/v1/channels/outputs", [{ tags: ["porch"] }])).toEqual({
      status: 200,
      body: [{ ...outputs.porchLightOn, tags: ["main", "porch"] }]
    })
  })

  it("takes GetSelectors and SetSelectors in one body: each tags every channel it matches", async () => {
    const body = {
      set: [{ id: { Exactly: "getter:back-door@test" } }, { id: { Exactly: "setter:back-door-lock@test" } }],
      tags: ["checked"]
    }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 2 })
    expect(await call("GET", "/api/v1/channels", [{ tags: ["checked"] }])).toEqual({
      status: 200,
      body: [{ ...inputs.backDoor, tags: ["checked"] }]
    })
    expect(await call("GET", "/api/v1/channels/outputs", [{ tags: ["checked"] }])).toEqual({
      status: 200,
      body: [{ ...outputs.backDoorLock, tags: ["checked"] }]
    })
  })

  it("tags every channel of every node for [{}]", async () => {
    expect(await call("POST", "/api/v1/channels/tag", { set: [{}], tags: ["everything"] })).toEqual({
      status: 200,
      body: allInputs.length + allOutputs.length
    })
  })

  it("counts a channel matched by two selectors once, and counts channels that already had the tags", async () => {
    const body = { set: [{ tags: ["main"] }, { kind: { Exactly: { OnOff: [] } } }], tags: ["main"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 3 })
    expect(await call("GET", "/api/v1/channels")).toEqual({ status: 200, body: allInputs })
  })

  it("removes the tags from inputs and outputs alike and answers how many matched", async () => {
    const body = { set: [{ kind: { Exactly: { OnOff: [] } } }], tags: ["main", "never-there"] }
    expect(await call("DELETE", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 2 })
    expect(await call("GET", "/api/v1/channels", [{ tags: ["main"] }])).toEqual({
      status: 200,
      body: [inputs.backDoorLock]
    })
    expect(await call("GET", "/api/v1/channels/outputs", [{ id: { Exactly: "setter:porch-light-on@test" } }])).toEqual({
      status: 200,
      body: [{ ...outputs.porchLightOn, tags: [] }]
    })
  })

  it("does not tag the channel's node", async () => {
    const body = { set: [{ id: { Exactly: "getter:wind-speed@test" } }], tags: ["channel-only"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 1 })
    expect(await call("GET", "/api/v1/nodes", [{ tags: ["channel-only"] }])).toEqual({ status: 200, body: [] })
  })

  it("answers 0 when nothing matches", async () => {
    const body = { set: [{ id: { Exactly: "getter:nowhere@test" } }, { kind: { Conflict: [] } }], tags: ["x"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 0 })
  })
})
