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
  decodeChannelTagBody,
  decodeFetchBody,
  decodeGetterTagBody,
  decodeSendBody,
  decodeServiceTagBody,
  decodeSetterTagBody,
  encodeChannelTagBody,
  encodeFetchBody,
  encodeGetterTagBody,
  encodeSendBody,
  encodeServiceTagBody,
  encodeSetterTagBody
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

const on = { OnOff: "On" }
const onValue = { _tag: "OnOff", state: "On" } as const
const setter = exactly("setter" as const)
const door = (id: string) => channelSelector({ id: exactly(ChannelId.make(id)), mechanism: setter })

describe("tag bodies (docs/reference.md §6.2)", () => {
  it("{\"services\": sel(s), \"tags\": [..]} of /services/tag", () => {
    expect(decoded(decodeServiceTagBody({ services: { id: "service:hall@sim" }, tags: ["b", "a"] }))).toEqual({
      selectors: [serviceSelector({ id: exactly(ServiceId.make("service:hall@sim")) })],
      tags: [Tag.make("a"), Tag.make("b")]
    })
  })

  it("{\"set\": sel(s), \"tags\": [..]} of /channels/tag matches either mechanism", () => {
    expect(decoded(decodeChannelTagBody({ set: [{ kind: "OnOff" }], tags: ["x"] })).selectors).toEqual([
      channelSelector({ mechanism: empty, kind: exactly({ _tag: "Builtin", name: "OnOff" }) })
    ])
  })

  it("the alias bodies {\"getters\": …} and {\"setters\": …} pin the mechanism", () => {
    expect(decoded(decodeGetterTagBody({ getters: {}, tags: [] })).selectors).toEqual([
      channelSelector({ mechanism: exactly("getter") })
    ])
    expect(decoded(decodeSetterTagBody({ setters: [{}], tags: [] })).selectors).toEqual([channelSelector({ mechanism: setter })])
  })

  it("refuses a missing part, an unknown field, and a bad tag", () => {
    expect(rejection(decodeChannelTagBody({ set: [] }))).toBe("body: missing field \"tags\"")
    expect(rejection(decodeChannelTagBody({ tags: [] }))).toBe("body: missing field \"set\"")
    expect(rejection(decodeServiceTagBody({ services: [], tags: [], set: [] }))).toBe(
      "body: unknown field \"set\" (a tag body takes services, tags)"
    )
    expect(rejection(decodeServiceTagBody({ services: [], tags: ["ok", "x".repeat(257)] }))).toBe(
      "body.tags[1]: must be at most 256 characters"
    )
    expect(rejection(decodeChannelTagBody({ set: [{}, { tags: [""] }], tags: ["x"] }))).toBe(
      "body.set[1].tags[0]: must not be empty"
    )
    expect(rejection(decodeServiceTagBody(null))).toBe("body: expected a tag body, got null")
  })

  it("decode(encode(r)) = r for each tag body", () => {
    fc.assert(fc.property(tagRequest(anyServiceSelector()), (r) => {
      expect(decoded(decodeServiceTagBody(onTheWire(encodeServiceTagBody(r))))).toEqual(r)
    }))
    fc.assert(fc.property(tagRequest(anyChannelSelector({ mechanism: empty })), (r) => {
      expect(decoded(decodeChannelTagBody(onTheWire(decoded(encodeChannelTagBody(r)))))).toEqual(r)
    }))
    fc.assert(fc.property(tagRequest(getterSelector()), (r) => {
      expect(decoded(decodeGetterTagBody(onTheWire(encodeGetterTagBody(r))))).toEqual(r)
    }))
    fc.assert(fc.property(tagRequest(setterSelector()), (r) => {
      expect(decoded(decodeSetterTagBody(onTheWire(encodeSetterTagBody(r))))).toEqual(r)
    }))
  })

  it("a /channels/tag body cannot pin a mechanism", () => {
    expect(Result.isFailure(encodeChannelTagBody({ selectors: [door("d")], tags: [] }))).toBe(true)
  })
})

describe("fetch body (docs/reference.md §6.2)", () => {
  it("is GetterSelector(s)", () => {
    expect(decoded(decodeFetchBody({ id: "getter:t@sim" }))).toEqual([
      channelSelector({ id: exactly(ChannelId.make("getter:t@sim")), mechanism: exactly("getter") })
    ])
  })

  it("decode(encode(s)) = s", () => {
    fc.assert(fc.property(fc.array(getterSelector(), { maxLength: 3 }), (selectors) => {
      expect(decoded(decodeFetchBody(onTheWire(encodeFetchBody(selectors))))).toEqual(selectors)
    }))
  })
})

describe("send body (docs/reference.md §6.2): a target, a list of targets and pairs, a bare pair", () => {
  const expected: ReadonlyArray<SendTarget> = [{ selectors: [door("setter:door@sim")], value: onValue }]

  it("one target {\"select\": sel(s), \"value\": V}", () => {
    expect(decoded(decodeSendBody({ select: { id: "setter:door@sim" }, value: on }))).toEqual(expected)
    expect(decoded(decodeSendBody({ select: [{ id: "setter:door@sim" }], value: on }))).toEqual(expected)
  })

  it("an array of targets, each with its own selectors and value", () => {
    const body = [
      { select: { id: "a" }, value: on },
      { select: [{ id: "b" }, { id: "c" }], value: { Unit: null } }
    ]
    expect(decoded(decodeSendBody(body))).toEqual([
      { selectors: [door("a")], value: onValue },
      { selectors: [door("b"), door("c")], value: { _tag: "Unit" } }
    ])
  })

  it("the pair [sel(s), V]", () => {
    expect(decoded(decodeSendBody([{ id: "setter:door@sim" }, on]))).toEqual(expected)
    expect(decoded(decodeSendBody([[{ id: "setter:door@sim" }], on]))).toEqual(expected)
  })

  it("a list whose elements are targets or pairs [sel(s), V], mixed, as FoxBox clients send it", () => {
    expect(decoded(decodeSendBody([[{ id: "setter:door@sim" }, on]]))).toEqual(expected)
    expect(decoded(decodeSendBody([[[{ id: "setter:door@sim" }], on]]))).toEqual(expected)
    expect(decoded(decodeSendBody([[{ id: "a" }, on], { select: { id: "b" }, value: null }, [[{ id: "c" }], on]])))
      .toEqual([
        { selectors: [door("a")], value: onValue },
        { selectors: [door("b")], value: { _tag: "Unit" } },
        { selectors: [door("c")], value: onValue }
      ])
    expect(decoded(decodeSendBody([[{ id: "a" }, on], [{ id: "b" }, on]]))).toEqual([
      { selectors: [door("a")], value: onValue },
      { selectors: [door("b")], value: onValue }
    ])
  })

  it("an element that is neither a target nor a pair is refused where it stands", () => {
    expect(rejection(decodeSendBody([[{ id: "a" }, on, on]]))).toBe("body[0]: expected a pair [selectors, value], got an array of 3 items")
    expect(rejection(decodeSendBody([[{ id: "a" }, on], "On"]))).toMatch(/^body\[1\]: expected a send target .* or a pair/)
    expect(rejection(decodeSendBody([[{ id: "a" }, { Foo: 1 }]]))).toMatch(/^body\[0\]\[1\]: unknown value type "Foo"/)
  })

  it("a bare null value is Unit", () => {
    expect(decoded(decodeSendBody({ select: {}, value: null }))[0]?.value).toEqual({ _tag: "Unit" })
  })

  it("one malformed value anywhere refuses the whole body", () => {
    const body = [{ select: { id: "a" }, value: on }, { select: { id: "b" }, value: { Color: { h: 0, s: 2, v: 0 } } }]
    expect(rejection(decodeSendBody(body))).toBe("body[1].value.Color.s: must be between 0 and 1")
    expect(rejection(decodeSendBody([{ id: "a" }, { Foo: 1 }]))).toMatch(/^body\[1\]: unknown value type "Foo"/)
  })

  it("a mistake in a list of targets is reported as such", () => {
    const body = [{ select: { id: "a" }, value: on }, { selec: { id: "b" }, value: on }]
    expect(rejection(decodeSendBody(body))).toBe(
      "body[1]: unknown field \"selec\" (a send target {\"select\", \"value\"} takes select, value)"
    )
    expect(rejection(decodeSendBody({ select: {} }))).toBe("body: missing field \"value\"")
    expect(rejection(decodeSendBody("On"))).toMatch(/^body: expected \{"select": …, "value": …\}, an array of them/)
  })

  it("decode(encode(targets)) = targets", () => {
    fc.assert(fc.property(fc.array(sendTarget(), { maxLength: 3 }), (targets) => {
      expect(decoded(decodeSendBody(onTheWire(encodeSendBody(targets))))).toEqual(targets)
    }))
  })
})
