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
  decodeEitherChannelSelector,
  decodeEitherChannelSelectors,
  decodeGetterSelector,
  decodeGetterSelectors,
  decodeServiceSelector,
  decodeServiceSelectors,
  decodeSetterSelector,
  decodeSetterSelectors,
  encodeEitherChannelSelectors,
  encodeGetterSelector,
  encodeGetterSelectors,
  encodeServiceSelector,
  encodeServiceSelectors,
  encodeSetterSelector,
  encodeSetterSelectors
} from "../../../src/vocabulary/b/index.ts"
import {
  channelSelector as anyChannelSelector,
  getterSelector,
  serviceSelector as anyServiceSelector,
  setterSelector
} from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "../common/expectations.ts"

const getter = exactly("getter" as const)
const setter = exactly("setter" as const)
const onOff: Kind = { _tag: "Builtin", name: "OnOff" }

describe("GetterSelector and SetterSelector (docs/reference.md §4)", () => {
  it("{} matches every channel of its mechanism", () => {
    expect(decoded(decodeGetterSelector({}))).toEqual(channelSelector({ mechanism: getter }))
    expect(decoded(decodeSetterSelector({}))).toEqual(channelSelector({ mechanism: setter }))
  })

  it("reads every field, tags sorted and without duplicates", () => {
    const json = { id: "getter:switch@sim", service: "service:hall@sim", tags: ["b", "a", "b"], service_tags: ["home"], kind: "OnOff" }
    expect(decoded(decodeGetterSelector(json))).toEqual({
      id: exactly(ChannelId.make("getter:switch@sim")),
      service: exactly(ServiceId.make("service:hall@sim")),
      mechanism: getter,
      kind: exactly(onOff),
      tags: [Tag.make("a"), Tag.make("b")],
      serviceTags: [Tag.make("home")]
    })
  })

  it("reads a null id, service or kind as an absent one, as clients serialise a missing field", () => {
    expect(decoded(decodeGetterSelector({ id: null, service: null, kind: null }))).toEqual(
      channelSelector({ mechanism: getter })
    )
  })

  it("refuses null for a nested list, which is always an array (docs/reference.md §4)", () => {
    expect(rejection(decodeGetterSelector({ tags: null }))).toBe("body.tags: expected an array of strings, got null")
    expect(rejection(decodeGetterSelector({ service_tags: null }))).toMatch(/^body\.service_tags: expected an array/)
    expect(rejection(decodeServiceSelector({ getters: null }))).toMatch(/^body\.getters: expected an array of GetterSelectors, got null/)
  })

  it("the selector of /channels/tag leaves the mechanism free", () => {
    expect(decoded(decodeEitherChannelSelector({ kind: "OnOff" }))).toEqual(
      channelSelector({ mechanism: empty, kind: exactly(onOff) })
    )
  })

  describe("refuses, with a message that names the place", () => {
    it("an unknown field", () => {
      expect(rejection(decodeGetterSelectors([{}, { colour: "red" }]))).toBe(
        "body[1]: unknown field \"colour\" (a GetterSelector takes id, service, tags, service_tags, kind)"
      )
    })
    it("an unknown kind", () => {
      expect(rejection(decodeSetterSelectors([{ kind: "Toaster" }]))).toMatch(/^body\[0\]\.kind: unknown kind "Toaster"/)
    })
    it("an empty tag", () => {
      expect(rejection(decodeGetterSelectors([{ tags: ["kitchen", ""] }]))).toBe("body[0].tags[1]: must not be empty")
    })
    it("a 257-character id, while 256 characters are fine", () => {
      expect(decoded(decodeGetterSelectors({ id: "x".repeat(256) }))).toHaveLength(1)
      expect(rejection(decodeGetterSelectors({ id: "x".repeat(257) }))).toBe("body.id: must be at most 256 characters")
    })
    it("a tag of 257 characters counted as code points: 256 emoji are fine", () => {
      expect(decoded(decodeGetterSelectors({ tags: ["😀".repeat(256)] }))).toHaveLength(1)
      expect(rejection(decodeGetterSelectors({ tags: ["😀".repeat(257)] }))).toBe("body.tags[0]: must be at most 256 characters")
    })
    it("control characters in an id or a tag", () => {
      expect(rejection(decodeGetterSelectors({ service: "hall\u0007" }))).toBe(
        "body.service: must not contain control characters"
      )
      expect(rejection(decodeGetterSelectors({ service_tags: ["a\nb"] }))).toBe(
        "body.service_tags[0]: must not contain control characters"
      )
    })
    it("tags that are not an array", () => {
      expect(rejection(decodeGetterSelectors([{ tags: "kitchen" }]))).toBe(
        "body[0].tags: expected an array of strings, got \"kitchen\""
      )
    })
    it("vocabulary A's wrapped id", () => {
      expect(rejection(decodeGetterSelectors([{ id: { Exactly: "x" } }]))).toBe(
        "body[0].id: expected a channel id (a string), got an object"
      )
    })
    it("a body that is neither a selector nor an array", () => {
      expect(rejection(decodeGetterSelectors("everything"))).toBe(
        "body: expected a GetterSelector or an array of them, got \"everything\""
      )
    })
  })
})

describe("ServiceSelector (docs/reference.md §4)", () => {
  it("reads id, tags and the getters and setters it must have", () => {
    const json = { id: "service:hall@sim", tags: ["hall"], getters: [{ kind: "OnOff" }], setters: [{}] }
    expect(decoded(decodeServiceSelector(json))).toEqual(serviceSelector({
      id: exactly(ServiceId.make("service:hall@sim")),
      tags: [Tag.make("hall")],
      getters: [channelSelector({ mechanism: getter, kind: exactly(onOff) })],
      setters: [channelSelector({ mechanism: setter })]
    }))
  })

  it("refuses a single selector in place of a nested array", () => {
    expect(rejection(decodeServiceSelectors([{ getters: { kind: "OnOff" } }]))).toBe(
      "body[0].getters: expected an array of GetterSelectors, got an object " +
        "(a single selector in place of an array is accepted only at the top level)"
    )
    expect(rejection(decodeServiceSelectors({ tags: "hall" }))).toBe("body.tags: expected an array of strings, got \"hall\"")
  })

  it("names the place of a bad nested selector", () => {
    expect(rejection(decodeServiceSelectors([{}, { setters: [{}, { id: "" }] }]))).toBe(
      "body[1].setters[1].id: must not be empty"
    )
  })
})

describe("top-level selector(s) (docs/reference.md §4)", () => {
  it("a single selector stands for an array of one", () => {
    expect(decoded(decodeGetterSelectors({ kind: "OnOff" }))).toEqual(decoded(decodeGetterSelectors([{ kind: "OnOff" }])))
    expect(decoded(decodeServiceSelectors({}))).toHaveLength(1)
    expect(decoded(decodeEitherChannelSelectors({}))).toHaveLength(1)
  })

  it("[] is an empty list, which matches nothing", () => {
    expect(decoded(decodeServiceSelectors([]))).toEqual([])
    expect(decoded(decodeSetterSelectors([]))).toEqual([])
  })

  it("one bad selector anywhere refuses the whole list", () => {
    fc.assert(fc.property(fc.array(getterSelector(), { maxLength: 4 }), fc.nat(), (selectors, at) => {
      const json = onTheWire(encodeGetterSelectors(selectors)) as Array<unknown>
      const position = at % (json.length + 1)
      json.splice(position, 0, { tags: [""] })
      expect(rejection(decodeGetterSelectors(json))).toBe(`body[${position}].tags[0]: must not be empty`)
    }))
  })
})

describe("encoding selectors", () => {
  it("writes the shortest form: {} for everything", () => {
    expect(encodeGetterSelectors([channelSelector({ mechanism: getter })])).toEqual([{}])
    expect(encodeServiceSelectors([serviceSelector({})])).toEqual([{}])
  })

  it("decode(encode(s)) = s for getter, setter, either-mechanism and service selectors", () => {
    fc.assert(fc.property(getterSelector(), (s) => {
      expect(decoded(decodeGetterSelectors(onTheWire(encodeGetterSelectors([s]))))).toEqual([s])
      expect(decoded(decodeGetterSelector(onTheWire(decoded(encodeGetterSelector(s)))))).toEqual(s)
    }))
    fc.assert(fc.property(setterSelector(), (s) => {
      expect(decoded(decodeSetterSelectors(onTheWire(encodeSetterSelectors([s]))))).toEqual([s])
      expect(decoded(decodeSetterSelector(onTheWire(decoded(encodeSetterSelector(s)))))).toEqual(s)
    }))
    fc.assert(fc.property(fc.array(anyChannelSelector({ mechanism: empty })), (list) => {
      expect(decoded(decodeEitherChannelSelectors(onTheWire(decoded(encodeEitherChannelSelectors(list)))))).toEqual(list)
    }))
    fc.assert(fc.property(anyServiceSelector(), (s) => {
      expect(decoded(decodeServiceSelectors(onTheWire(encodeServiceSelectors([s]))))).toEqual([s])
      expect(decoded(decodeServiceSelector(onTheWire(decoded(encodeServiceSelector(s)))))).toEqual(s)
    }))
  })

  it("refuses a single selector B cannot write: a Conflict, or the other mechanism", () => {
    const message = (r: Result.Result<unknown, { readonly reason: string }>) =>
      Result.isFailure(r) ? r.failure.reason : expect.fail("expected Unexpressible")
    expect(message(encodeGetterSelector(channelSelector({ id: conflict })))).toContain("matches nothing")
    expect(message(encodeGetterSelector(channelSelector({ mechanism: setter })))).toContain("matches nothing")
    expect(message(encodeServiceSelector(serviceSelector({ getters: [channelSelector({ kind: conflict })] }))))
      .toContain("matches nothing")
  })

  it("a getter selector may leave its mechanism free: the getter context adds it", () => {
    expect(decoded(encodeGetterSelector(channelSelector({ kind: exactly(onOff) })))).toEqual({ kind: "OnOff" })
  })

  it("the selectors of /channels/tag cannot pin a mechanism", () => {
    const r = encodeEitherChannelSelectors([channelSelector({ mechanism: getter })])
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
        const written = decoded(decodeGetterSelectors(onTheWire(encodeGetterSelectors(list))))
        const inContext = list.map((s) => ({ ...s, mechanism: s.mechanism._tag === "Empty" ? getter : s.mechanism }))
        expect(anyChannelMatches(written, channel, serviceTags)).toBe(anyChannelMatches(inContext, channel, serviceTags))
      })
    )
  })
})
