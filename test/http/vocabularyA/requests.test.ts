import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { exchange, started } from "./exchange.ts"
import { allInputs, allNodes, allOutputs, home } from "./homes.ts"

/**
 * Malformed vocabulary A requests (docs/reference.md §9, §10): a 400 whose body is a JSON string naming the place,
 * nothing written or tagged; every A body is an array where the spec says so; wrong methods and paths.
 */

let gateway: GatewayOverHttp | undefined
beforeAll(async () => {
  gateway = await startGateway(home)
})
afterAll(() => gateway?.close())
const call = exchange(() => started(gateway))

/** Nothing was tagged or written: the home still reads as it started. */
const expectUntouched = async () => {
  expect(await call("GET", "/api/v1/nodes")).toEqual({ status: 200, body: allNodes })
  expect(await call("GET", "/api/v1/channels/value", [{ id: { Exactly: "getter:porch-light-on@test" } }])).toEqual({
    status: 200,
    body: [["getter:porch-light-on@test", { Ok: { OnOff: "Off" } }]]
  })
}

describe("a single selector where A takes an array", () => {
  it.each([
    ["GET", "/api/v1/nodes", { id: { Exactly: "service:porch-light@test" } }, "body: expected an array of NodeSelector, got an object"],
    ["GET", "/api/v1/channels", { tags: ["main"] }, "body: expected an array of GetSelector, got an object"],
    ["GET", "/api/v1/channels/inputs", { tags: ["main"] }, "body: expected an array of GetSelector, got an object"],
    ["GET", "/api/v1/channels/outputs", { tags: ["main"] }, "body: expected an array of SetSelector, got an object"],
    ["GET", "/api/v1/channels/value", { tags: ["main"] }, "body: expected an array of GetSelector, got an object"],
    ["POST", "/api/v1/nodes/tag", { set: {}, tags: ["x"] }, "body.set: expected an array of NodeSelector, got an object"],
    [
      "POST",
      "/api/v1/channels/tag?vocabulary=a",
      { set: { tags: ["main"] }, tags: ["x"] },
      "body.set: expected an array of GetSelector or SetSelector, got an object"
    ],
    [
      "DELETE",
      "/api/v1/channels/tag",
      { set: { id: { Exactly: "getter:porch-light-on@test" } }, tags: ["main"] },
      "body.set: expected an array of GetSelector or SetSelector, got an object"
    ],
    [
      "POST",
      "/api/v1/channels/value",
      { set: { tags: ["main"] }, value: { OnOff: "On" } },
      "body.set: expected an array of SetSelector, got an object"
    ],
    [
      "POST",
      "/api/v1/channels/value",
      [{ tags: ["main"] }, { OnOff: "On" }],
      "body[0]: expected an array of SetSelector, got an object"
    ]
  ])("%s %s with %j is a 400", async (method, path, body, message) => {
    expect(await call(method, path, body)).toEqual({ status: 400, body: message })
  })

  it("is refused inside a NodeSelector too: `inputs` must be an array", async () => {
    expect(await call("GET", "/api/v1/nodes", [{ inputs: { tags: ["main"] } }])).toEqual({
      status: 400,
      body: "body[0].inputs: expected an array of GetSelector, got an object"
    })
  })
})

describe("bodies that are not what the operation takes", () => {
  it.each([
    ["GET", "/api/v1/nodes", "[{", "body: invalid JSON: expected property name or '}' at position 2 (line 1 column 3)"],
    ["GET", "/api/v1/nodes", [{ name: "porch" }], "body[0]: unknown field \"name\" (a NodeSelector takes id, tags, inputs, outputs)"],
    [
      "GET",
      "/api/v1/channels",
      [{}, { service: { Exactly: "service:porch-light@test" } }],
      "body[1]: unknown field \"service\" (a GetSelector takes id, parent, tags, kind)"
    ],
    [
      "GET",
      "/api/v1/channels/outputs",
      [{ kind: { Exactly: "OnOff" } }],
      "body[0].kind.Exactly: expected a kind such as {\"OnOff\": []}, got \"OnOff\""
    ],
    ["GET", "/api/v1/channels", [{ kind: { Exactly: { Toaster: [] } } }], "body[0].kind.Exactly: unknown kind \"Toaster\""],
    ["GET", "/api/v1/channels", [{ kind: { Exactly: { OnOff: {} } } }], "body[0].kind.Exactly.OnOff: expected an empty array []"],
    [
      "GET",
      "/api/v1/channels",
      [{ id: { Maybe: "x" } }],
      "body[0].id: unknown constraint \"Maybe\", expected {\"Exactly\": …}, {\"Empty\": []} or {\"Conflict\": []}"
    ],
    ["GET", "/api/v1/channels", [{ id: { Exactly: "" } }], "body[0].id.Exactly: must not be empty"],
    ["GET", "/api/v1/channels/value", [{ tags: "main" }], "body[0].tags: expected an array of strings, got \"main\""],
    ["GET", "/api/v1/channels/value", 42, "body: expected an array of GetSelector, got 42"]
  ])("%s %s with %j is a 400 naming the place", async (method, path, body, message) => {
    expect(await call(method, path, body)).toEqual({ status: 400, body: message })
  })
})

describe("tag and write operations", () => {
  it.each([
    ["POST", "/api/v1/nodes/tag"],
    ["DELETE", "/api/v1/nodes/tag"],
    ["POST", "/api/v1/channels/tag"],
    ["DELETE", "/api/v1/channels/tag"],
    ["POST", "/api/v1/channels/value"]
  ])("%s %s without a body is a 400", async (method, path) => {
    expect(await call(method, path)).toEqual({ status: 400, body: "body: required, a JSON document" })
  })

  it.each([
    ["/api/v1/nodes/tag", { set: [{}] }, "body: missing field \"tags\""],
    ["/api/v1/nodes/tag", { tags: ["x"] }, "body: missing field \"set\""],
    ["/api/v1/nodes/tag", { set: [{}], tags: ["x", 7] }, "body.tags[1]: expected a tag (a string), got 7"],
    ["/api/v1/nodes/tag", { set: [{}], tags: [""] }, "body.tags[0]: must not be empty"],
    ["/api/v1/nodes/tag", { set: [{}], tags: ["x".repeat(257)] }, "body.tags[0]: must be at most 256 characters"],
    ["/api/v1/nodes/tag", { set: [{}], tags: ["a\nb"] }, "body.tags[0]: must not contain control characters"],
    [
      "/api/v1/nodes/tag",
      { set: [{}], tags: ["x"], services: [] },
      "body: unknown field \"services\" (a tag body {\"set\": […], \"tags\": […]} takes set, tags)"
    ],
    [
      "/api/v1/channels/tag",
      { set: [{ id: { Exactly: "getter:porch-light-on@test" } }, { id: 3 }], tags: ["x"] },
      "body.set[1].id: expected {\"Exactly\": …}, {\"Empty\": []} or {\"Conflict\": []}, got 3"
    ]
  ])("POST %s with %j is a 400 and tags nothing", async (path, body, message) => {
    expect(await call("POST", path, body)).toEqual({ status: 400, body: message })
    await expectUntouched()
  })

  it.each([
    [
      [[{}], { OnOff: "On" }, "extra"],
      "body: expected the pair [[SetSelector], Value] or {\"set\": [SetSelector], \"value\": Value}, got an array of 3 items"
    ],
    [{ set: [{}] }, "body: missing field \"value\""],
    [{ set: [{}], value: { OnOff: "On" }, select: [] }, "body: unknown field \"select\" ({\"set\", \"value\"} takes set, value)"],
    [[[{}], { OnOff: "Dim" }], "body[1].OnOff: expected \"On\" or \"Off\", got \"Dim\""],
    [[[{}], { Color: { h: 10, s: 2, v: 0.5 } }], "body[1].Color.s: must be between 0 and 1"],
    ["\"On\"", "body: expected the pair [[SetSelector], Value] or {\"set\": [SetSelector], \"value\": Value}, got \"On\""]
  ])("POST /api/v1/channels/value with %j is a 400 and writes nothing", async (body, message) => {
    expect(await call("POST", "/api/v1/channels/value", body)).toEqual({ status: 400, body: message })
    await expectUntouched()
  })
})

describe("reads with a blank body", () => {
  it("mean everything, as reads with no body do", async () => {
    expect(await call("GET", "/api/v1/channels", "")).toEqual({ status: 200, body: allInputs })
    expect(await call("GET", "/api/v1/channels/outputs", "  \n")).toEqual({ status: 200, body: allOutputs })
  })
})

describe("methods and paths", () => {
  it.each([
    ["PUT", "/api/v1/nodes", "GET"],
    ["GET", "/api/v1/nodes/tag", "POST, DELETE"],
    ["POST", "/api/v1/channels/inputs", "GET"],
    ["POST", "/api/v1/channels/outputs", "GET"],
    ["PUT", "/api/v1/channels/value", "GET, POST"],
    ["GET", "/api/v1/channels/tag", "POST, DELETE"]
  ])("%s %s is a 405 with Allow: %s", async (method, path, allow) => {
    const reply = await started(gateway).call(method, path, [])
    expect({ status: reply.status, allow: reply.headers["allow"], body: reply.json }).toEqual({
      status: 405,
      allow,
      body: `method ${method} not allowed here; allowed: ${allow}`
    })
  })

  it.each(["/api/v1/node", "/api/v1/nodes/", "/api/v2/nodes", "/api/v1/channels/input", "/api/v1/channels/values"])(
    "GET %s is a 404 with a JSON string",
    async (path) => {
      expect(await call("GET", path)).toEqual({ status: 404, body: `no such path: ${path}` })
    }
  )
})
