import * as fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  ChannelId,
  channelSelector,
  empty,
  exactly,
  type SendTarget,
  ServiceId,
  serviceSelector,
  Tag
} from "../../../src/domain/index.ts"
import {
  ChannelTagBodyJson,
  GetterSelectorsJson,
  GetterTagBodyJson,
  SendBodyJson,
  ServiceTagBodyJson,
  SetterTagBodyJson
} from "../../../src/vocabulary/b/index.ts"
import {
  channelSelector as anyChannelSelector,
  getterSelector,
  sendTarget,
  serviceSelector as anyServiceSelector,
  setterSelector,
  tagRequest
} from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "../common/expectations.ts"
import { decode, encode } from "../../../src/vocabulary/common/WireIssue.ts"

const on = { OnOff: "On" }
const onValue = { _tag: "OnOff", state: "On" } as const
const setter = exactly("setter" as const)
const door = (id: string) => channelSelector({ id: exactly(ChannelId.make(id)), mechanism: setter })

describe("tag bodies (docs/reference.md §6.2)", () => {
  it("{\"services\": sel(s), \"tags\": [..]} of /services/tag", () => {
    expect(decoded(decode(ServiceTagBodyJson, { services: { id: "service:hall@sim" }, tags: ["b", "a"] }))).toEqual({
      selectors: [serviceSelector({ id: exactly(ServiceId.make("service:hall@sim")) })],
      tags: [Tag.make("a"), Tag.make("b")]
    })
  })

  it("{\"set\": sel(s), \"tags\": [..]} of /channels/tag matches either mechanism", () => {
    expect(decoded(decode(ChannelTagBodyJson, { set: [{ kind: "OnOff" }], tags: ["x"] })).selectors).toEqual([
      channelSelector({ mechanism: empty, kind: exactly({ _tag: "Builtin", name: "OnOff" }) })
    ])
  })

  it("the alias bodies {\"getters\": …} and {\"setters\": …} pin the mechanism", () => {
    expect(decoded(decode(GetterTagBodyJson, { getters: {}, tags: [] })).selectors).toEqual([
      channelSelector({ mechanism: exactly("getter") })
    ])
    expect(decoded(decode(SetterTagBodyJson, { setters: [{}], tags: [] })).selectors).toEqual([channelSelector({ mechanism: setter })])
  })

  it("refuses a missing part, an unknown field, and a bad tag", () => {
    expect(rejection(decode(ChannelTagBodyJson, { set: [] }))).toBe("body: missing field \"tags\"")
    expect(rejection(decode(ChannelTagBodyJson, { tags: [] }))).toBe("body: missing field \"set\"")
    expect(rejection(decode(ServiceTagBodyJson, { services: [], tags: [], set: [] }))).toBe(
      "body: unknown field \"set\" (a tag body takes services, tags)"
    )
    expect(rejection(decode(ServiceTagBodyJson, { services: [], tags: ["ok", "x".repeat(257)] }))).toBe(
      "body.tags[1]: must be at most 256 characters"
    )
    expect(rejection(decode(ChannelTagBodyJson, { set: [{}, { tags: [""] }], tags: ["x"] }))).toBe(
      "body.set[1].tags[0]: must not be empty"
    )
    expect(rejection(decode(ServiceTagBodyJson, null))).toBe("body: expected a tag body, got null")
  })

  it("decode(encode(r)) = r for each tag body", () => {
    fc.assert(fc.property(tagRequest(anyServiceSelector()), (r) => {
      expect(decoded(decode(ServiceTagBodyJson, onTheWire(ServiceTagBodyJson.write(r))))).toEqual(r)
    }))
    fc.assert(fc.property(tagRequest(anyChannelSelector({ mechanism: empty })), (r) => {
      expect(decoded(decode(ChannelTagBodyJson, onTheWire(decoded(encode(ChannelTagBodyJson, r)))))).toEqual(r)
    }))
    fc.assert(fc.property(tagRequest(getterSelector()), (r) => {
      expect(decoded(decode(GetterTagBodyJson, onTheWire(GetterTagBodyJson.write(r))))).toEqual(r)
    }))
    fc.assert(fc.property(tagRequest(setterSelector()), (r) => {
      expect(decoded(decode(SetterTagBodyJson, onTheWire(SetterTagBodyJson.write(r))))).toEqual(r)
    }))
  })

  it("a /channels/tag body cannot pin a mechanism", () => {
    expect(Result.isFailure(encode(ChannelTagBodyJson, { selectors: [door("d")], tags: [] }))).toBe(true)
  })
})

describe("fetch body (docs/reference.md §6.2)", () => {
  it("is GetterSelector(s)", () => {
    expect(decoded(decode(GetterSelectorsJson, { id: "getter:t@sim" }))).toEqual([
      channelSelector({ id: exactly(ChannelId.make("getter:t@sim")), mechanism: exactly("getter") })
    ])
  })

  it("decode(encode(s)) = s", () => {
    fc.assert(fc.property(fc.array(getterSelector(), { maxLength: 3 }), (selectors) => {
      expect(decoded(decode(GetterSelectorsJson, onTheWire(GetterSelectorsJson.write(selectors))))).toEqual(selectors)
    }))
  })
})

describe("send body (docs/reference.md §6.2): a target, a list of targets and pairs, a bare pair", () => {
  const expected: ReadonlyArray<SendTarget> = [{ selectors: [door("setter:door@sim")], value: onValue }]

  it("one target {\"select\": sel(s), \"value\": V}", () => {
    expect(decoded(decode(SendBodyJson, { select: { id: "setter:door@sim" }, value: on }))).toEqual(expected)
    expect(decoded(decode(SendBodyJson, { select: [{ id: "setter:door@sim" }], value: on }))).toEqual(expected)
  })

  it("an array of targets, each with its own selectors and value", () => {
    const body = [
      { select: { id: "a" }, value: on },
      { select: [{ id: "b" }, { id: "c" }], value: { Unit: null } }
    ]
    expect(decoded(decode(SendBodyJson, body))).toEqual([
      { selectors: [door("a")], value: onValue },
      { selectors: [door("b"), door("c")], value: { _tag: "Unit" } }
    ])
  })

  it("the pair [sel(s), V]", () => {
    expect(decoded(decode(SendBodyJson, [{ id: "setter:door@sim" }, on]))).toEqual(expected)
    expect(decoded(decode(SendBodyJson, [[{ id: "setter:door@sim" }], on]))).toEqual(expected)
  })

  it("a list whose elements are targets or pairs [sel(s), V], mixed, as FoxBox clients send it", () => {
    expect(decoded(decode(SendBodyJson, [[{ id: "setter:door@sim" }, on]]))).toEqual(expected)
    expect(decoded(decode(SendBodyJson, [[[{ id: "setter:door@sim" }], on]]))).toEqual(expected)
    expect(decoded(decode(SendBodyJson, [[{ id: "a" }, on], { select: { id: "b" }, value: null }, [[{ id: "c" }], on]])))
      .toEqual([
        { selectors: [door("a")], value: onValue },
        { selectors: [door("b")], value: { _tag: "Unit" } },
        { selectors: [door("c")], value: onValue }
      ])
    expect(decoded(decode(SendBodyJson, [[{ id: "a" }, on], [{ id: "b" }, on]]))).toEqual([
      { selectors: [door("a")], value: onValue },
      { selectors: [door("b")], value: onValue }
    ])
  })

  it("an element that is neither a target nor a pair is refused where it stands", () => {
    expect(rejection(decode(SendBodyJson, [[{ id: "a" }, on, on]]))).toBe("body[0]: expected a pair [selectors, value], got an array of 3 items")
    expect(rejection(decode(SendBodyJson, [[{ id: "a" }, on], "On"]))).toMatch(/^body\[1\]: expected a send target .* or a pair/)
    expect(rejection(decode(SendBodyJson, [[{ id: "a" }, { Foo: 1 }]]))).toMatch(/^body\[0\]\[1\]: unknown value type "Foo"/)
  })

  it("a bare null value is Unit", () => {
    expect(decoded(decode(SendBodyJson, { select: {}, value: null }))[0]?.value).toEqual({ _tag: "Unit" })
  })

  it("one malformed value anywhere refuses the whole body", () => {
    const body = [{ select: { id: "a" }, value: on }, { select: { id: "b" }, value: { Color: { h: 0, s: 2, v: 0 } } }]
    expect(rejection(decode(SendBodyJson, body))).toBe("body[1].value.Color.s: must be between 0 and 1")
    expect(rejection(decode(SendBodyJson, [{ id: "a" }, { Foo: 1 }]))).toMatch(/^body\[1\]: unknown value type "Foo"/)
  })

  it("a mistake in a list of targets is reported as such", () => {
    const body = [{ select: { id: "a" }, value: on }, { selec: { id: "b" }, value: on }]
    expect(rejection(decode(SendBodyJson, body))).toBe(
      "body[1]: unknown field \"selec\" (a send target {\"select\", \"value\"} takes select, value)"
    )
    expect(rejection(decode(SendBodyJson, { select: {} }))).toBe("body: missing field \"value\"")
    expect(rejection(decode(SendBodyJson, "On"))).toMatch(/^body: expected \{"select": …, "value": …\}, an array of them/)
  })

  it("decode(encode(targets)) = targets", () => {
    fc.assert(fc.property(fc.array(sendTarget(), { maxLength: 3 }), (targets) => {
      expect(decoded(decode(SendBodyJson, onTheWire(SendBodyJson.write(targets))))).toEqual(targets)
    }))
  })
})
