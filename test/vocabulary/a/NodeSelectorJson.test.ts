import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { conflict, empty, exactly } from "../../../src/domain/Constraint.ts"
import { ServiceId, Tag } from "../../../src/domain/Identifier.ts"
import { builtinKind } from "../../../src/domain/Kind.ts"
import { channelSelector, serviceSelector } from "../../../src/domain/Selector.ts"
import { NodeSelectorsJson } from "../../../src/vocabulary/a/index.ts"
import { nodeSelector } from "./arbitraries.ts"
import { decoded, unexpressible, onTheWire, rejection } from "./expectations.ts"
import { decode, encode } from "../../../src/vocabulary/common/WireIssue.ts"

describe("NodeSelector", () => {
  it("reads {} as every node", () => {
    expect(decoded(decode(NodeSelectorsJson, [{}]))).toEqual([serviceSelector({})])
  })

  it("reads id, tags, inputs (as getter selectors) and outputs (as setter selectors)", () => {
    const json = [{
      id: { Exactly: "service:hall@sim" },
      tags: ["kitchen"],
      inputs: [{ kind: { Exactly: { OnOff: [] } } }],
      outputs: [{ tags: ["lamp"] }]
    }]
    expect(decoded(decode(NodeSelectorsJson, json))).toEqual([serviceSelector({
      id: exactly(ServiceId.make("service:hall@sim")),
      tags: [Tag.make("kitchen")],
      getters: [channelSelector({ mechanism: exactly("getter"), kind: exactly(builtinKind("OnOff")) })],
      setters: [channelSelector({ mechanism: exactly("setter"), tags: [Tag.make("lamp")] })]
    })])
  })

  it("reads {\"Conflict\": []} on the id", () => {
    expect(decoded(decode(NodeSelectorsJson, [{ id: { Conflict: [] } }]))).toEqual([serviceSelector({ id: conflict })])
  })

  it("rejects a single selector in place of the array (docs/reference.md §4)", () => {
    expect(rejection(decode(NodeSelectorsJson, {}))).toMatch(/^body: expected an array of NodeSelector/)
  })

  it("rejects inputs that are not an array", () => {
    expect(rejection(decode(NodeSelectorsJson, [{ inputs: {} }]))).toMatch(/^body\[0\]\.inputs: expected an array of GetSelector/)
  })

  it("rejects an unknown field, naming it (vocabulary B's getters included)", () => {
    expect(rejection(decode(NodeSelectorsJson, [{ getters: [] }]))).toMatch(/^body\[0\]: unknown field "getters"/)
  })

  it("names the path of a bad nested selector", () => {
    expect(rejection(decode(NodeSelectorsJson, [{}, { outputs: [{}, { kind: { Exactly: { Toaster: [] } } }] }])))
      .toBe(`body[1].outputs[1].kind.Exactly: unknown kind "Toaster"`)
  })

  it("writes only the constrained fields", () => {
    const selector = serviceSelector({
      tags: [Tag.make("kitchen")],
      getters: [channelSelector({ mechanism: exactly("getter"), kind: exactly(builtinKind("OnOff")) })]
    })
    expect(decoded(encode(NodeSelectorsJson, [selector]))).toEqual([
      { tags: ["kitchen"], inputs: [{ kind: { Exactly: { OnOff: [] } } }] }
    ])
  })

  it("writes a channel requirement that leaves the mechanism open as the GetSelector / SetSelector it stands for", () => {
    const selector = serviceSelector({ getters: [channelSelector({ mechanism: empty })], setters: [channelSelector({})] })
    expect(decoded(encode(NodeSelectorsJson, [selector]))).toEqual([{ inputs: [{}], outputs: [{}] }])
  })

  it("cannot write a channel requirement on the node's tags", () => {
    const selector = serviceSelector({ getters: [channelSelector({ serviceTags: [Tag.make("hall")] })] })
    expect(unexpressible(encode(NodeSelectorsJson, [selector]))).toMatch(/service_tags/)
  })

  it("reads back what it writes: decode(encode(s)) = s", () => {
    fc.assert(fc.property(fc.array(nodeSelector, { maxLength: 3 }), (selectors) => {
      expect(decoded(decode(NodeSelectorsJson, onTheWire(decoded(encode(NodeSelectorsJson, selectors)))))).toEqual(selectors)
    }))
  })
})
