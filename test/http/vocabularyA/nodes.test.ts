import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { exchange, started } from "./exchange.ts"
import { allNodes, home, nodes } from "./homes.ts"

/** get_nodes, put_node_tag and delete_node_tag over HTTP (docs/reference.md §6.3). */

describe("get_nodes (GET /api/v1/nodes)", () => {
  let gateway: GatewayOverHttp | undefined
  beforeAll(async () => {
    gateway = await startGateway(home)
  })
  afterAll(() => gateway?.close())
  const call = exchange(() => started(gateway))

  it("answers every node, sorted by id, with its inputs and outputs, when called with no body", async () => {
    expect(await call("GET", "/api/v1/nodes")).toEqual({ status: 200, body: allNodes })
  })

  it("answers 200 with Content-Type application/json", async () => {
    const reply = await started(gateway).call("GET", "/api/v1/nodes", [])
    expect({ status: reply.status, contentType: reply.headers["content-type"] }).toEqual({
      status: 200,
      contentType: "application/json"
    })
  })

  it("answers every node for [{}], the selector with no fields", async () => {
    expect(await call("GET", "/api/v1/nodes", [{}])).toEqual({ status: 200, body: allNodes })
  })

  it("answers no node for [], the empty array", async () => {
    expect(await call("GET", "/api/v1/nodes", [])).toEqual({ status: 200, body: [] })
  })

  it("selects a node by {\"id\": {\"Exactly\": id}}", async () => {
    expect(await call("GET", "/api/v1/nodes", [{ id: { Exactly: "service:porch-light@test" } }])).toEqual({
      status: 200,
      body: [nodes.porchLight]
    })
  })

  it("answers an empty list, not an error, for an id that names no node", async () => {
    expect(await call("GET", "/api/v1/nodes", [{ id: { Exactly: "service:nowhere@test" } }])).toEqual({
      status: 200,
      body: []
    })
  })

  it("selects the nodes that carry all the tags given", async () => {
    expect(await call("GET", "/api/v1/nodes", [{ tags: ["outside", "door"] }])).toEqual({
      status: 200,
      body: [nodes.backDoor]
    })
  })

  it("selects nodes having, for each of `inputs`, at least one input that matches it", async () => {
    const body = [{ inputs: [{ kind: { Exactly: { OpenClosed: [] } } }, { tags: ["main"] }] }]
    expect(await call("GET", "/api/v1/nodes", body)).toEqual({ status: 200, body: [nodes.backDoor] })
  })

  it("selects nodes by `outputs` (a node without outputs never matches a non-empty `outputs`)", async () => {
    const body = [{ outputs: [{}] }]
    expect(await call("GET", "/api/v1/nodes", body)).toEqual({ status: 200, body: [nodes.backDoor, nodes.porchLight] })
  })

  it("selects by an extension kind written {\"Extension\": {vendor, adapter, kind, type}}", async () => {
    const windSpeed = { Extension: { vendor: "acme", adapter: "weather", kind: "wind-speed", type: "ExtNumeric" } }
    expect(await call("GET", "/api/v1/nodes", [{ inputs: [{ kind: { Exactly: windSpeed } }] }])).toEqual({
      status: 200,
      body: [nodes.windGauge]
    })
  })

  it("ANDs the fields of one selector and ORs the selectors of the array", async () => {
    const body = [
      { tags: ["light"], outputs: [{ kind: { Exactly: { DoorLocked: [] } } }] },
      { id: { Exactly: "service:wind-gauge@test" }, tags: ["outside"] }
    ]
    expect(await call("GET", "/api/v1/nodes", body)).toEqual({ status: 200, body: [nodes.windGauge] })
  })

  it("lists a node once even when several selectors match it", async () => {
    const body = [{ tags: ["outside"] }, { id: { Exactly: "service:porch-light@test" } }]
    expect(await call("GET", "/api/v1/nodes", body)).toEqual({ status: 200, body: allNodes })
  })

  it("reads {\"Empty\": []} as no constraint and {\"Conflict\": []} as matching nothing", async () => {
    expect(await call("GET", "/api/v1/nodes", [{ id: { Empty: [] } }])).toEqual({ status: 200, body: allNodes })
    expect(await call("GET", "/api/v1/nodes", [{ id: { Conflict: [] } }])).toEqual({ status: 200, body: [] })
  })

  it("does not read B's bare id: a 400 naming the field", async () => {
    expect(await call("GET", "/api/v1/nodes", [{ id: "service:porch-light@test" }])).toEqual({
      status: 400,
      body: `body[0].id: expected {"Exactly": …}, {"Empty": []} or {"Conflict": []}, got "service:porch-light@test"`
    })
  })
})

describe("put_node_tag and delete_node_tag (POST / DELETE /api/v1/nodes/tag)", () => {
  // Each test tags its own fresh gateway.
  let gateway: GatewayOverHttp | undefined
  beforeEach(async () => {
    gateway = await startGateway(home)
  })
  afterEach(() => gateway?.close())
  const call = exchange(() => started(gateway))

  it("adds the tags to every node matched and answers how many matched", async () => {
    const body = { set: [{ tags: ["door"] }, { id: { Exactly: "service:wind-gauge@test" } }], tags: ["watched", "alpha"] }
    expect(await call("POST", "/api/v1/nodes/tag", body)).toEqual({ status: 200, body: 2 })
    expect(await call("GET", "/api/v1/nodes", [{ tags: ["watched"] }])).toEqual({
      status: 200,
      body: [
        { ...nodes.backDoor, tags: ["alpha", "door", "outside", "watched"] },
        { ...nodes.windGauge, tags: ["alpha", "outside", "watched"] }
      ]
    })
  })

  it("counts the nodes that matched, including those that already had the tags", async () => {
    const body = { set: [{ tags: ["outside"] }], tags: ["outside"] }
    expect(await call("POST", "/api/v1/nodes/tag", body)).toEqual({ status: 200, body: 3 })
    expect(await call("DELETE", "/api/v1/nodes/tag", { set: [{ tags: ["door"] }], tags: ["not-there"] })).toEqual({
      status: 200,
      body: 1
    })
    expect(await call("GET", "/api/v1/nodes")).toEqual({ status: 200, body: allNodes })
  })

  it("counts a node matched by two selectors once", async () => {
    const body = {
      set: [{ id: { Exactly: "service:porch-light@test" } }, { tags: ["light"] }],
      tags: ["counted-once"]
    }
    expect(await call("POST", "/api/v1/nodes/tag", body)).toEqual({ status: 200, body: 1 })
    expect(await call("GET", "/api/v1/nodes", [{ tags: ["counted-once"] }])).toEqual({
      status: 200,
      body: [{ ...nodes.porchLight, tags: ["counted-once", "light", "outside"] }]
    })
  })

  it("removes the tags from every node matched and answers how many matched", async () => {
    expect(await call("POST", "/api/v1/nodes/tag", { set: [{}], tags: ["to-remove", "kept"] })).toEqual({ status: 200, body: 3 })
    const body = { set: [{ tags: ["light"] }, { tags: ["door"] }], tags: ["to-remove", "light", "never-there"] }
    expect(await call("DELETE", "/api/v1/nodes/tag", body)).toEqual({ status: 200, body: 2 })
    expect(await call("GET", "/api/v1/nodes")).toEqual({
      status: 200,
      body: [
        { ...nodes.backDoor, tags: ["door", "kept", "outside"] },
        { ...nodes.porchLight, tags: ["kept", "outside"] },
        { ...nodes.windGauge, tags: ["kept", "outside", "to-remove"] }
      ]
    })
  })

  it("answers 0 and changes nothing when no node matches", async () => {
    expect(await call("DELETE", "/api/v1/nodes/tag", { set: [], tags: ["outside"] })).toEqual({ status: 200, body: 0 })
    expect(await call("POST", "/api/v1/nodes/tag", { set: [{ id: { Exactly: "service:none@test" } }], tags: ["x"] }))
      .toEqual({ status: 200, body: 0 })
    expect(await call("GET", "/api/v1/nodes", [{ tags: ["x"] }])).toEqual({ status: 200, body: [] })
  })

  it("does not tag the node's channels", async () => {
    await call("POST", "/api/v1/nodes/tag", { set: [{ id: { Exactly: "service:wind-gauge@test" } }], tags: ["node-only"] })
    expect(await call("GET", "/api/v1/nodes", [{ tags: ["node-only"] }])).toEqual({
      status: 200,
      body: [{ ...nodes.windGauge, tags: ["node-only", "outside"] }]
    })
    expect(await call("GET", "/api/v1/channels", [{ tags: ["node-only"] }])).toEqual({ status: 200, body: [] })
  })
})
