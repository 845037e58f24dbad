import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { empty, exactly } from "../../../src/domain/Constraint.ts"
import { ChannelId, Tag } from "../../../src/domain/Identifier.ts"
import { builtinKind } from "../../../src/domain/Kind.ts"
import type { SendTarget } from "../../../src/domain/Request.ts"
import { channelSelector, serviceSelector } from "../../../src/domain/Selector.ts"
import {
  ChannelTagBodyJson,
  GetSelectorsJson,
  NodeTagBodyJson,
  PutValueBodyJson
} from "../../../src/vocabulary/a/index.ts"
import { tagRequest } from "../../arbitraries/domain.ts"
import { channelTagSelector, getSelector, nodeSelector, sendTarget } from "./arbitraries.ts"
import { decoded, unexpressible, onTheWire, rejection } from "./expectations.ts"
import { decode, encode } from "../../../src/vocabulary/common/WireIssue.ts"

const setter = (id: string) => channelSelector({ mechanism: exactly("setter"), id: exactly(ChannelId.make(id)) })

describe("put_node_tag / delete_node_tag body", () => {
  it("reads {\"set\": [NodeSelector], \"tags\": [..]}", () => {
    expect(decoded(decode(NodeTagBodyJson, { set: [{ tags: ["kitchen"] }], tags: ["lamp", "blue"] }))).toEqual({
      selectors: [serviceSelector({ tags: [Tag.make("kitchen")] })],
      tags: [Tag.make("blue"), Tag.make("lamp")]
    })
  })

  it("rejects a body without tags or without set", () => {
    expect(rejection(decode(NodeTagBodyJson, { set: [] }))).toBe(`body: missing field "tags"`)
    expect(rejection(decode(NodeTagBodyJson, { tags: [] }))).toBe(`body: missing field "set"`)
  })

  it("rejects a single selector in set (every A body holds arrays)", () => {
    expect(rejection(decode(NodeTagBodyJson, { set: {}, tags: ["a"] }))).toMatch(/^body\.set: expected an array of NodeSelector/)
  })

  it("rejects B's field names, naming them", () => {
    expect(rejection(decode(NodeTagBodyJson, { services: [], tags: [] }))).toMatch(/^body: unknown field "services"/)
  })

  it("rejects a bad tag, naming it", () => {
    expect(rejection(decode(NodeTagBodyJson, { set: [], tags: ["ok", ""] }))).toBe("body.tags[1]: must not be empty")
  })

  it("reads back what it writes", () => {
    fc.assert(fc.property(tagRequest(nodeSelector), (request) => {
      expect(decoded(decode(NodeTagBodyJson, onTheWire(decoded(encode(NodeTagBodyJson, request)))))).toEqual(request)
    }))
  })
})

describe("put/delete input and output tag body (/api/v1/channels/tag)", () => {
  it("reads GetSelectors and SetSelectors alike, as selectors of either mechanism", () => {
    const body = { set: [{ id: { Exactly: "getter:temp@sim" } }, { kind: { Exactly: { OnOff: [] } } }], tags: ["x"] }
    expect(decoded(decode(ChannelTagBodyJson, body))).toEqual({
      selectors: [
        channelSelector({ mechanism: empty, id: exactly(ChannelId.make("getter:temp@sim")) }),
        channelSelector({ mechanism: empty, kind: exactly(builtinKind("OnOff")) })
      ],
      tags: [Tag.make("x")]
    })
  })

  it("rejects a B selector, naming the field that gives it away", () => {
    expect(rejection(decode(ChannelTagBodyJson, { set: [{ service_tags: ["a"] }], tags: [] })))
      .toMatch(/^body\.set\[0\]: unknown field "service_tags"/)
    expect(rejection(decode(ChannelTagBodyJson, { set: [{ id: "getter:temp@sim" }], tags: [] })))
      .toMatch(/^body\.set\[0\]\.id: expected \{"Exactly": …}/)
  })

  it("reads back what it writes", () => {
    fc.assert(fc.property(tagRequest(channelTagSelector), (request) => {
      expect(decoded(decode(ChannelTagBodyJson, onTheWire(decoded(encode(ChannelTagBodyJson, request)))))).toEqual(request)
    }))
  })
})

describe("get_channel_value body", () => {
  it("reads [GetSelector]", () => {
    expect(decoded(decode(GetSelectorsJson, [{ kind: { Exactly: { OnOff: [] } } }])))
      .toEqual([channelSelector({ mechanism: exactly("getter"), kind: exactly(builtinKind("OnOff")) })])
  })

  it("reads back what it writes", () => {
    fc.assert(fc.property(fc.array(getSelector, { maxLength: 3 }), (selectors) => {
      expect(decoded(decode(GetSelectorsJson, onTheWire(decoded(encode(GetSelectorsJson, selectors)))))).toEqual(selectors)
    }))
  })
})

describe("put_channel_value body", () => {
  const expected: ReadonlyArray<SendTarget> = [
    { selectors: [setter("setter:door@sim")], value: { _tag: "DoorLocked", state: "Locked" } }
  ]

  it("reads the pair [[SetSelector], V] as one write target", () => {
    const body = [[{ id: { Exactly: "setter:door@sim" } }], { DoorLocked: "Locked" }]
    expect(decoded(decode(PutValueBodyJson, body))).toEqual(expected)
  })

  it("reads {\"set\": [SetSelector], \"value\": V} as the same write target", () => {
    const body = { set: [{ id: { Exactly: "setter:door@sim" } }], value: { DoorLocked: "Locked" } }
    expect(decoded(decode(PutValueBodyJson, body))).toEqual(expected)
  })

  it("reads FoxBox's bare null as Unit", () => {
    expect(decoded(decode(PutValueBodyJson, [[], null]))).toEqual([{ selectors: [], value: { _tag: "Unit" } }])
  })

  it("rejects a malformed value, naming where it is, in either form (docs/reference.md §9)", () => {
    const color = { Color: { h: 10, s: 2, v: 0.5 } }
    expect(rejection(decode(PutValueBodyJson, [[{}], color]))).toMatch(/^body\[1\]\.Color\.s: /)
    expect(rejection(decode(PutValueBodyJson, { set: [{}], value: color }))).toMatch(/^body\.value\.Color\.s: /)
  })

  it("rejects a pair of another length, a single selector, and a missing value", () => {
    expect(rejection(decode(PutValueBodyJson, [[{}]]))).toMatch(/^body: expected the pair \[\[SetSelector\], Value\]/)
    expect(rejection(decode(PutValueBodyJson, [[{}], { OnOff: "On" }, { OnOff: "Off" }]))).toMatch(/got an array of 3 items/)
    expect(rejection(decode(PutValueBodyJson, [{}, { OnOff: "On" }]))).toMatch(/^body\[0\]: expected an array of SetSelector/)
    expect(rejection(decode(PutValueBodyJson, { set: [{}] }))).toBe(`body: missing field "value"`)
    expect(rejection(decode(PutValueBodyJson, "On"))).toMatch(/^body: expected the pair/)
  })

  it("rejects B's select key, naming it", () => {
    expect(rejection(decode(PutValueBodyJson, { select: [{}], value: { OnOff: "On" } }))).toMatch(/^body: unknown field "select"/)
  })

  it("validates the whole body: a bad selector after good ones rejects it", () => {
    expect(rejection(decode(PutValueBodyJson, [[{}, {}, { parent: { Exactly: "" } }], { OnOff: "On" }])))
      .toBe("body[0][2].parent.Exactly: must not be empty")
  })

  it("writes the object form", () => {
    expect(onTheWire(decoded(encode(PutValueBodyJson, expected))))
      .toEqual({ set: [{ id: { Exactly: "setter:door@sim" } }], value: { DoorLocked: "Locked" } })
  })

  it("cannot write several targets, or none: an A request carries one value", () => {
    expect(unexpressible(encode(PutValueBodyJson, [...expected, ...expected]))).toMatch(/one value, not 2/)
    expect(unexpressible(encode(PutValueBodyJson, []))).toMatch(/one value, not 0/)
  })

  it("reads back what it writes", () => {
    fc.assert(fc.property(sendTarget, (target) => {
      expect(decoded(decode(PutValueBodyJson, onTheWire(decoded(encode(PutValueBodyJson, [target])))))).toEqual([target])
    }))
  })
})
