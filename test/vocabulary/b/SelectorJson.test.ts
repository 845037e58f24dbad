import * as fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  AdapterId,
  anyChannelMatches,
  type Channel,
  ChannelId,
  channelSelector,
  type ChannelSelector,
  conflict,
  empty,
  exactly,
  type Kind,
  ServiceId,
  serviceSelector,
  Tag
} from "../../../src/domain/index.ts"
import {
  EitherChannelSelectorJson,
  EitherChannelSelectorsJson,
  GetterSelectorJson,
  GetterSelectorsJson,
  ServiceSelectorJson,
  ServiceSelectorsJson,
  SetterSelectorJson,
  SetterSelectorsJson
} from "../../../src/vocabulary/b/index.ts"
import {
  channelSelector as anyChannelSelector,
  getterSelector,
  serviceSelector as anyServiceSelector,
  setterSelector
} from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "../common/expectations.ts"
import { decode, encode } from "../../../src/vocabulary/common/WireIssue.ts"

const getter = exactly("getter" as const)
const setter = exactly("setter" as const)
const onOff: Kind = { _tag: "Builtin", name: "OnOff" }

describe("GetterSelector and SetterSelector (docs/reference.md §4)", () => {
  it("{} matches every channel of its mechanism", () => {
    expect(decoded(decode(GetterSelectorJson, {}))).toEqual(channelSelector({ mechanism: getter }))
    expect(decoded(decode(SetterSelectorJson, {}))).toEqual(channelSelector({ mechanism: setter }))
  })

  it("reads every field, tags sorted and without duplicates", () => {
    const json = { id: "getter:switch@sim", service: "service:hall@sim", tags: ["b", "a", "b"], service_tags: ["home"], kind: "OnOff" }
    expect(decoded(decode(GetterSelectorJson, json))).toEqual({
      id: exactly(ChannelId.make("getter:switch@sim")),
      service: exactly(ServiceId.make("service:hall@sim")),
      mechanism: getter,
      kind: exactly(onOff),
      tags: [Tag.make("a"), Tag.make("b")],
      serviceTags: [Tag.make("home")]
    })
  })

  it("reads a null id, service or kind as an absent one, as clients serialise a missing field", () => {
    expect(decoded(decode(GetterSelectorJson, { id: null, service: null, kind: null }))).toEqual(
      channelSelector({ mechanism: getter })
    )
  })

  it("refuses null for a nested list, which is always an array (docs/reference.md §4)", () => {
    expect(rejection(decode(GetterSelectorJson, { tags: null }))).toBe("body.tags: expected an array of strings, got null")
    expect(rejection(decode(GetterSelectorJson, { service_tags: null }))).toMatch(/^body\.service_tags: expected an array/)
    expect(rejection(decode(ServiceSelectorJson, { getters: null }))).toMatch(/^body\.getters: expected an array of GetterSelectors, got null/)
  })

  it("the selector of /channels/tag leaves the mechanism free", () => {
    expect(decoded(decode(EitherChannelSelectorJson, { kind: "OnOff" }))).toEqual(
      channelSelector({ mechanism: empty, kind: exactly(onOff) })
    )
  })

  describe("refuses, with a message that names the place", () => {
    it("an unknown field", () => {
      expect(rejection(decode(GetterSelectorsJson, [{}, { colour: "red" }]))).toBe(
        "body[1]: unknown field \"colour\" (a GetterSelector takes id, service, tags, service_tags, kind)"
      )
    })
    it("an unknown kind", () => {
      expect(rejection(decode(SetterSelectorsJson, [{ kind: "Toaster" }]))).toMatch(/^body\[0\]\.kind: unknown kind "Toaster"/)
    })
    it("an empty tag", () => {
      expect(rejection(decode(GetterSelectorsJson, [{ tags: ["kitchen", ""] }]))).toBe("body[0].tags[1]: must not be empty")
    })
    it("a 257-character id, while 256 characters are fine", () => {
      expect(decoded(decode(GetterSelectorsJson, { id: "x".repeat(256) }))).toHaveLength(1)
      expect(rejection(decode(GetterSelectorsJson, { id: "x".repeat(257) }))).toBe("body.id: must be at most 256 characters")
    })
    it("a tag of 257 characters counted as code points: 256 emoji are fine", () => {
      expect(decoded(decode(GetterSelectorsJson, { tags: ["😀".repeat(256)] }))).toHaveLength(1)
      expect(rejection(decode(GetterSelectorsJson, { tags: ["😀".repeat(257)] }))).toBe("body.tags[0]: must be at most 256 characters")
    })
    it("control characters in an id or a tag", () => {
      expect(rejection(decode(GetterSelectorsJson, { service: "hall\u0007" }))).toBe(
        "body.service: must not contain control characters"
      )
      expect(rejection(decode(GetterSelectorsJson, { service_tags: ["a\nb"] }))).toBe(
        "body.service_tags[0]: must not contain control characters"
      )
    })
    it("tags that are not an array", () => {
      expect(rejection(decode(GetterSelectorsJson, [{ tags: "kitchen" }]))).toBe(
        "body[0].tags: expected an array of strings, got \"kitchen\""
      )
    })
    it("vocabulary A's wrapped id", () => {
      expect(rejection(decode(GetterSelectorsJson, [{ id: { Exactly: "x" } }]))).toBe(
        "body[0].id: expected a channel id (a string), got an object"
      )
    })
    it("a body that is neither a selector nor an array", () => {
      expect(rejection(decode(GetterSelectorsJson, "everything"))).toBe(
        "body: expected a GetterSelector or an array of them, got \"everything\""
      )
    })
  })
})

describe("ServiceSelector (docs/reference.md §4)", () => {
  it("reads id, tags and the getters and setters it must have", () => {
    const json = { id: "service:hall@sim", tags: ["hall"], getters: [{ kind: "OnOff" }], setters: [{}] }
    expect(decoded(decode(ServiceSelectorJson, json))).toEqual(serviceSelector({
      id: exactly(ServiceId.make("service:hall@sim")),
      tags: [Tag.make("hall")],
      getters: [channelSelector({ mechanism: getter, kind: exactly(onOff) })],
      setters: [channelSelector({ mechanism: setter })]
    }))
  })

  it("refuses a single selector in place of a nested array", () => {
    expect(rejection(decode(ServiceSelectorsJson, [{ getters: { kind: "OnOff" } }]))).toBe(
      "body[0].getters: expected an array of GetterSelectors, got an object " +
        "(a single selector in place of an array is accepted only at the top level)"
    )
    expect(rejection(decode(ServiceSelectorsJson, { tags: "hall" }))).toBe("body.tags: expected an array of strings, got \"hall\"")
  })

  it("names the place of a bad nested selector", () => {
    expect(rejection(decode(ServiceSelectorsJson, [{}, { setters: [{}, { id: "" }] }]))).toBe(
      "body[1].setters[1].id: must not be empty"
    )
  })
})

describe("top-level selector(s) (docs/reference.md §4)", () => {
  it("a single selector stands for an array of one", () => {
    expect(decoded(decode(GetterSelectorsJson, { kind: "OnOff" }))).toEqual(decoded(decode(GetterSelectorsJson, [{ kind: "OnOff" }])))
    expect(decoded(decode(ServiceSelectorsJson, {}))).toHaveLength(1)
    expect(decoded(decode(EitherChannelSelectorsJson, {}))).toHaveLength(1)
  })

  it("[] is an empty list, which matches nothing", () => {
    expect(decoded(decode(ServiceSelectorsJson, []))).toEqual([])
    expect(decoded(decode(SetterSelectorsJson, []))).toEqual([])
  })

  it("one bad selector anywhere refuses the whole list", () => {
    fc.assert(fc.property(fc.array(getterSelector(), { maxLength: 4 }), fc.nat(), (selectors, at) => {
      const json = onTheWire(GetterSelectorsJson.write(selectors)) as Array<unknown>
      const position = at % (json.length + 1)
      json.splice(position, 0, { tags: [""] })
      expect(rejection(decode(GetterSelectorsJson, json))).toBe(`body[${position}].tags[0]: must not be empty`)
    }))
  })
})

describe("encoding selectors", () => {
  it("writes the shortest form: {} for everything", () => {
    expect(GetterSelectorsJson.write([channelSelector({ mechanism: getter })])).toEqual([{}])
    expect(ServiceSelectorsJson.write([serviceSelector({})])).toEqual([{}])
  })

  it("decode(encode(s)) = s for getter, setter, either-mechanism and service selectors", () => {
    fc.assert(fc.property(getterSelector(), (s) => {
      expect(decoded(decode(GetterSelectorsJson, onTheWire(GetterSelectorsJson.write([s]))))).toEqual([s])
      expect(decoded(decode(GetterSelectorJson, onTheWire(decoded(encode(GetterSelectorJson, s)))))).toEqual(s)
    }))
    fc.assert(fc.property(setterSelector(), (s) => {
      expect(decoded(decode(SetterSelectorsJson, onTheWire(SetterSelectorsJson.write([s]))))).toEqual([s])
      expect(decoded(decode(SetterSelectorJson, onTheWire(decoded(encode(SetterSelectorJson, s)))))).toEqual(s)
    }))
    fc.assert(fc.property(fc.array(anyChannelSelector({ mechanism: empty })), (list) => {
      expect(decoded(decode(EitherChannelSelectorsJson, onTheWire(decoded(encode(EitherChannelSelectorsJson, list)))))).toEqual(list)
    }))
    fc.assert(fc.property(anyServiceSelector(), (s) => {
      expect(decoded(decode(ServiceSelectorsJson, onTheWire(ServiceSelectorsJson.write([s]))))).toEqual([s])
      expect(decoded(decode(ServiceSelectorJson, onTheWire(decoded(encode(ServiceSelectorJson, s)))))).toEqual(s)
    }))
  })

  it("refuses a single selector B cannot write: a Conflict, or the other mechanism", () => {
    const message = (r: Result.Result<unknown, { readonly reason: string }>) =>
      Result.isFailure(r) ? r.failure.reason : expect.fail("expected Unexpressible")
    expect(message(encode(GetterSelectorJson, channelSelector({ id: conflict })))).toContain("matches nothing")
    expect(message(encode(GetterSelectorJson, channelSelector({ mechanism: setter })))).toContain("matches nothing")
    expect(message(encode(ServiceSelectorJson, serviceSelector({ getters: [channelSelector({ kind: conflict })] }))))
      .toContain("matches nothing")
  })

  it("a getter selector may leave its mechanism free: the getter context adds it", () => {
    expect(decoded(encode(GetterSelectorJson, channelSelector({ kind: exactly(onOff) })))).toEqual({ kind: "OnOff" })
  })

  it("the selectors of /channels/tag cannot pin a mechanism", () => {
    const r = encode(EitherChannelSelectorsJson, [channelSelector({ mechanism: getter })])
    expect(Result.isFailure(r) && r.failure.reason).toContain("/channels/getter/tags")
  })

  /** Small pools, so that selectors and channels often meet. */
  const pooledSelector: fc.Arbitrary<ChannelSelector> = fc.record({
    id: fc.constantFrom(empty, conflict, exactly(ChannelId.make("a")), exactly(ChannelId.make("b"))),
    service: fc.constantFrom(empty, conflict, exactly(ServiceId.make("s"))),
    mechanism: fc.constantFrom(empty, conflict, getter, setter),
    kind: fc.constantFrom(empty, exactly(onOff)),
    tags: fc.constantFrom([], [Tag.make("x")]),
    serviceTags: fc.constantFrom([], [Tag.make("y")])
  })
  const pooledGetter: fc.Arbitrary<Channel> = fc.record({
    id: fc.constantFrom(ChannelId.make("a"), ChannelId.make("b")),
    service: fc.constantFrom(ServiceId.make("s"), ServiceId.make("t")),
    adapter: fc.constant(AdapterId.make("sim")),
    mechanism: fc.constant("getter" as const),
    kind: fc.constantFrom<Kind>(onOff, { _tag: "Builtin", name: "Ready" }),
    tags: fc.constantFrom([], [Tag.make("x")]),
    updated: fc.constant(null),
    lastSeen: fc.constant(null),
    pushMs: fc.constant(0)
  })

  it("a list loses only selectors that match nothing: the encoded list matches the same getters", () => {
    fc.assert(
      fc.property(fc.array(pooledSelector, { maxLength: 4 }), pooledGetter, fc.constantFrom([], [Tag.make("y")]), (list, channel, serviceTags) => {
        const written = decoded(decode(GetterSelectorsJson, onTheWire(GetterSelectorsJson.write(list))))
        const inContext = list.map((s) => ({ ...s, mechanism: s.mechanism._tag === "Empty" ? getter : s.mechanism }))
        expect(anyChannelMatches(written, channel, serviceTags)).toBe(anyChannelMatches(inContext, channel, serviceTags))
      })
    )
  })
})
