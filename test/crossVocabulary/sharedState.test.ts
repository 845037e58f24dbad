import { Result } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import * as A from "../../src/vocabulary/a/index.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import { exchange, started } from "../http/vocabularyA/exchange.ts"
import { home } from "../http/vocabularyA/homes.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { decode } from "../../src/vocabulary/common/WireIssue.ts"

/**
 * One gateway, two vocabularies (docs/reference.md §1): the same ids, the same tags and the same values, whichever
 * vocabulary wrote them and whichever reads them; and the channel tag path both share (docs/reference.md §6.5).
 */

let gateway: GatewayOverHttp | undefined
beforeEach(async () => {
  gateway = await startGateway(home)
})
afterEach(() => gateway?.close())
const call = exchange(() => started(gateway))

const ids = (body: unknown): ReadonlyArray<unknown> => (body as ReadonlyArray<{ readonly id: unknown }>).map((r) => r.id)
const tagsById = (body: unknown): Record<string, unknown> =>
  Object.fromEntries((body as ReadonlyArray<{ readonly id: string; readonly tags: unknown }>).map((r) => [r.id, r.tags]))

const decoded = <A>(result: Result.Result<A, { readonly message: string }>): A => {
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

describe("the same ids through A and B", () => {
  it("names a node by its service id, its inputs by getter ids and its outputs by setter ids", async () => {
    const nodes = (await call("GET", "/api/v1/nodes")).body as ReadonlyArray<
      { id: string; inputs: ReadonlyArray<unknown>; outputs: ReadonlyArray<unknown> }
    >
    const services = (await call("GET", "/api/v1/services")).body as ReadonlyArray<
      { id: string; getters: ReadonlyArray<unknown>; setters: ReadonlyArray<unknown> }
    >
    const expected = [
      {
        id: "service:back-door@test",
        in: ["getter:back-door-lock@test", "getter:back-door@test"],
        out: ["setter:back-door-lock@test"]
      },
      { id: "service:porch-light@test", in: ["getter:porch-light-on@test"], out: ["setter:porch-light-on@test"] },
      { id: "service:wind-gauge@test", in: ["getter:wind-gauge-ready@test", "getter:wind-speed@test"], out: [] }
    ]
    expect(nodes.map((n) => ({ id: n.id, in: ids(n.inputs), out: ids(n.outputs) }))).toEqual(expected)
    expect(services.map((s) => ({ id: s.id, in: ids(s.getters), out: ids(s.setters) }))).toEqual(expected)
  })

  it("lists the same input channels as getters and output channels as setters", async () => {
    expect(ids((await call("GET", "/api/v1/channels")).body)).toEqual(ids((await call("GET", "/api/v1/channels/getters")).body))
    expect(ids((await call("GET", "/api/v1/channels/outputs")).body)).toEqual(
      ids((await call("GET", "/api/v1/channels/setters")).body)
    )
    expect(ids((await call("GET", "/api/v1/channels/outputs")).body)).toEqual([
      "setter:back-door-lock@test",
      "setter:porch-light-on@test"
    ])
  })

  it("shows the same tags, kinds and times: a node read with A's codec is the service read with B's, less what A does not show", async () => {
    const nodes = decoded(decode(A.NodesJson, (await started(gateway).call("GET", "/api/v1/nodes")).json))
    const services = decoded(decode(B.ServicesJson, (await started(gateway).call("GET", "/api/v1/services")).json))
    expect(nodes).toEqual(services.map(A.nodeInA))
  })
})

describe("tags written through one vocabulary, read through the other", () => {
  it("shows a node tag added through A as a service tag in B", async () => {
    const body = { set: [{ id: { Exactly: "service:wind-gauge@test" } }], tags: ["from-a"] }
    expect(await call("POST", "/api/v1/nodes/tag", body)).toEqual({ status: 200, body: 1 })
    expect(ids((await call("GET", "/api/v1/services", { tags: ["from-a"] })).body)).toEqual(["service:wind-gauge@test"])
    expect(ids((await call("GET", "/api/v1/channels/getters", { service_tags: ["from-a"] })).body)).toEqual([
      "getter:wind-gauge-ready@test",
      "getter:wind-speed@test"
    ])
  })

  it("shows a service tag added through B as a node tag in A, and removes it through A", async () => {
    const body = { services: { tags: ["door"] }, tags: ["from-b"] }
    expect(await call("POST", "/api/v1/services/tag", body)).toEqual({ status: 200, body: 1 })
    expect(tagsById((await call("GET", "/api/v1/nodes", [{ tags: ["from-b"] }])).body)).toEqual({
      "service:back-door@test": ["door", "from-b", "outside"]
    })
    const removal = { set: [{ tags: ["from-b"] }], tags: ["from-b"] }
    expect(await call("DELETE", "/api/v1/nodes/tag", removal)).toEqual({ status: 200, body: 1 })
    expect(await call("GET", "/api/v1/services", { tags: ["from-b"] })).toEqual({ status: 200, body: [] })
  })

  it("shows input and output tags added through A as getter and setter tags in B", async () => {
    const body = { set: [{ parent: { Exactly: "service:porch-light@test" } }], tags: ["from-a"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 2 })
    expect(tagsById((await call("GET", "/api/v1/channels/getters", { tags: ["from-a"] })).body)).toEqual({
      "getter:porch-light-on@test": ["from-a", "main"]
    })
    expect(tagsById((await call("GET", "/api/v1/channels/setters", { tags: ["from-a"] })).body)).toEqual({
      "setter:porch-light-on@test": ["from-a", "main"]
    })
  })

  it("shows getter and setter tags added through B as input and output tags in A, and removes them through B", async () => {
    expect(await call("POST", "/api/v1/channels/getter/tags", { getters: { kind: "Ready" }, tags: ["from-b"] })).toEqual({
      status: 200,
      body: 1
    })
    expect(await call("POST", "/api/v1/channels/setter/tags", { setters: [{}], tags: ["from-b"] })).toEqual({
      status: 200,
      body: 2
    })
    expect(ids((await call("GET", "/api/v1/channels", [{ tags: ["from-b"] }])).body)).toEqual([
      "getter:wind-gauge-ready@test"
    ])
    expect(ids((await call("GET", "/api/v1/channels/outputs", [{ tags: ["from-b"] }])).body)).toEqual([
      "setter:back-door-lock@test",
      "setter:porch-light-on@test"
    ])
    expect(await call("DELETE", "/api/v1/channels/tag", { set: { tags: ["from-b"] }, tags: ["from-b"] })).toEqual({
      status: 200,
      body: 3
    })
    expect(await call("GET", "/api/v1/channels/value", [{ tags: ["from-b"] }])).toEqual({ status: 200, body: [] })
  })
})

describe("values written through one vocabulary, read through the other", () => {
  it("reads through A a value written through B", async () => {
    const write = { select: { id: "setter:porch-light-on@test" }, value: { OnOff: "On" } }
    expect(await call("PUT", "/api/v1/channels/set", write)).toEqual({
      status: 200,
      body: { "setter:porch-light-on@test": null }
    })
    expect(await call("GET", "/api/v1/channels/value", [{ parent: { Exactly: "service:porch-light@test" } }])).toEqual({
      status: 200,
      body: [["getter:porch-light-on@test", { Ok: { OnOff: "On" } }]]
    })
  })

  it("reads through B a value written through A", async () => {
    const write = [[{ id: { Exactly: "setter:back-door-lock@test" } }], { DoorLocked: "Unlocked" }]
    expect(await call("POST", "/api/v1/channels/value", write)).toEqual({
      status: 200,
      body: [["setter:back-door-lock@test", { Ok: null }]]
    })
    expect(await call("GET", "/api/v1/channels/get", { service: "service:back-door@test" })).toEqual({
      status: 200,
      body: { "getter:back-door-lock@test": { DoorLocked: "Unlocked" }, "getter:back-door@test": { OpenClosed: "Closed" } }
    })
  })

  it("shows through B that an output written through A was updated", async () => {
    const setter = async () =>
      (await call("GET", "/api/v1/channels/setters", { id: "setter:porch-light-on@test" })).body as ReadonlyArray<{
        readonly updated: unknown
      }>
    expect((await setter()).map((s) => s.updated)).toEqual([null])
    await call("POST", "/api/v1/channels/value", { set: [{ tags: ["main"] }], value: { OnOff: "On" } })
    expect((await setter()).map((s) => s.updated)).toEqual(["<time>"])
  })

  it("reports the same missing channels and type errors in each vocabulary's words", async () => {
    const inA = await call("POST", "/api/v1/channels/value", [
      [{ id: { Exactly: "setter:nowhere@test" } }, { parent: { Exactly: "service:porch-light@test" } }],
      { OpenClosed: "Open" }
    ])
    const inB = await call("PUT", "/api/v1/channels/set", [
      [{ id: "setter:nowhere@test" }, { service: "service:porch-light@test" }],
      { OpenClosed: "Open" }
    ])
    expect(inA).toEqual({
      status: 200,
      body: [
        ["setter:nowhere@test", { Err: { NoSuchSet: "setter:nowhere@test" } }],
        ["setter:porch-light-on@test", { Err: { TypeError: [] } }]
      ]
    })
    expect(inB).toEqual({
      status: 200,
      body: {
        "setter:nowhere@test": { Error: { NoSuchSetter: "setter:nowhere@test" } },
        "setter:porch-light-on@test": { Error: { TypeError: { expected: "OnOff", got: "OpenClosed" } } }
      }
    })
  })
})

describe("the shared channel tag path (/api/v1/channels/tag)", () => {
  const taggedIds = async (tag: string) => [
    ...ids((await call("GET", "/api/v1/channels/getters", { tags: [tag] })).body),
    ...ids((await call("GET", "/api/v1/channels/setters", { tags: [tag] })).body)
  ]

  it("reads a body with {\"Exactly\": …} as vocabulary A", async () => {
    const body = { set: [{ kind: { Exactly: { OnOff: [] } } }], tags: ["a-shaped"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 2 })
    expect(await taggedIds("a-shaped")).toEqual(["getter:porch-light-on@test", "setter:porch-light-on@test"])
  })

  it("reads a body with bare ids and kinds as vocabulary B, a single selector included", async () => {
    const body = { set: { kind: "DoorLocked" }, tags: ["b-shaped"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 2 })
    expect(await taggedIds("b-shaped")).toEqual(["getter:back-door-lock@test", "setter:back-door-lock@test"])
  })

  it("reads B's service_tags, which A has no word for", async () => {
    const body = { set: [{ service_tags: ["light"] }], tags: ["b-only"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 2 })
    expect(await taggedIds("b-only")).toEqual(["getter:porch-light-on@test", "setter:porch-light-on@test"])
  })

  it("reads A's parent, which B calls service", async () => {
    const body = { set: [{ parent: { Exactly: "service:wind-gauge@test" } }], tags: ["a-only"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 2 })
    expect(await taggedIds("a-only")).toEqual(["getter:wind-gauge-ready@test", "getter:wind-speed@test"])
  })

  it.each(["", "?vocabulary=a", "?vocabulary=b"])(
    "gives a body that reads both ways the same meaning both ways (%s)",
    async (query) => {
      const body = { set: [{ tags: ["main"] }, {}], tags: ["both-ways"] }
      expect(await call("POST", `/api/v1/channels/tag${query}`, body)).toEqual({ status: 200, body: 7 })
      expect(await call("DELETE", `/api/v1/channels/tag${query}`, { set: [{ tags: ["main"] }], tags: ["both-ways"] }))
        .toEqual({ status: 200, body: 3 })
      expect(await taggedIds("both-ways")).toEqual([
        "getter:back-door@test",
        "getter:wind-gauge-ready@test",
        "getter:wind-speed@test",
        "setter:back-door-lock@test"
      ])
    }
  )

  it("reads an A body as B when ?vocabulary=b forces it: a 400 in B's words, nothing tagged", async () => {
    const body = { set: [{ id: { Exactly: "getter:porch-light-on@test" } }], tags: ["forced"] }
    expect(await call("POST", "/api/v1/channels/tag?vocabulary=b", body)).toEqual({
      status: 400,
      body: "body.set[0].id: expected a channel id (a string), got an object"
    })
    expect(await taggedIds("forced")).toEqual([])
  })

  it("reads a B body as A when ?vocabulary=a forces it: a 400 in A's words, nothing tagged", async () => {
    const body = { set: [{ id: "getter:porch-light-on@test" }], tags: ["forced"] }
    expect(await call("POST", "/api/v1/channels/tag?vocabulary=a", body)).toEqual({
      status: 400,
      body: "body.set[0].id: expected {\"Exactly\": …}, {\"Empty\": []} or {\"Conflict\": []}, got \"getter:porch-light-on@test\""
    })
    expect(await taggedIds("forced")).toEqual([])
  })

  it("refuses a vocabulary other than a or b with a 400 naming the query parameter", async () => {
    const body = { set: [{}], tags: ["forced"] }
    expect(await call("POST", "/api/v1/channels/tag?vocabulary=c", body)).toEqual({
      status: 400,
      body: "query.vocabulary: expected \"a\" or \"b\", got \"c\""
    })
    expect(await call("DELETE", "/api/v1/channels/tag?vocabulary=A", body)).toEqual({
      status: 400,
      body: "query.vocabulary: expected \"a\" or \"b\", got \"A\""
    })
    expect(await taggedIds("forced")).toEqual([])
  })

  it("refuses a body mixing the two vocabularies, in the words of the one it looks like", async () => {
    const body = { set: [{ id: { Exactly: "getter:porch-light-on@test" } }, { kind: "OnOff" }], tags: ["mixed"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({
      status: 400,
      body: "body.set[1].kind: expected {\"Exactly\": …}, {\"Empty\": []} or {\"Conflict\": []}, got \"OnOff\""
    })
    expect(await taggedIds("mixed")).toEqual([])
  })
})
