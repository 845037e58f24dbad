import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { conflict, empty, exactly } from "../../../src/domain/Constraint.ts"
import { ChannelId, ServiceId, Tag } from "../../../src/domain/Identifier.ts"
import { builtinKind } from "../../../src/domain/Kind.ts"
import { type ChannelSelector, channelSelector } from "../../../src/domain/Selector.ts"
import {
  ChannelTagSelectorsJson,
  GetSelectorsJson,
  SetSelectorsJson
} from "../../../src/vocabulary/a/index.ts"
import { channelTagSelector, getSelector, setSelector } from "./arbitraries.ts"
import { decoded, unexpressible, onTheWire, rejection } from "./expectations.ts"
import { decode, encode } from "../../../src/vocabulary/common/WireIssue.ts"

const getter = (fields: Partial<ChannelSelector>) => channelSelector({ mechanism: exactly("getter"), ...fields })

describe("GetSelector", () => {
  it("reads {} as every input channel: the mechanism is Exactly getter, nothing else is constrained", () => {
    expect(decoded(decode(GetSelectorsJson, [{}]))).toEqual([getter({})])
  })

  it("reads the kind example of docs/reference.md §4", () => {
    expect(decoded(decode(GetSelectorsJson, [{ kind: { Exactly: { OnOff: [] } } }])))
      .toEqual([getter({ kind: exactly(builtinKind("OnOff")) })])
  })

  it("reads id, parent and tags; tags come out sorted and without duplicates", () => {
    const json = [{
      id: { Exactly: "getter:temp@sim" },
      parent: { Exactly: "service:hall@sim" },
      tags: ["upstairs", "kitchen", "upstairs"]
    }]
    expect(decoded(decode(GetSelectorsJson, json))).toEqual([getter({
      id: exactly(ChannelId.make("getter:temp@sim")),
      service: exactly(ServiceId.make("service:hall@sim")),
      tags: [Tag.make("kitchen"), Tag.make("upstairs")]
    })])
  })

  it("reads {\"Empty\": []} as no constraint and {\"Conflict\": []} as matching nothing", () => {
    expect(decoded(decode(GetSelectorsJson, [{ id: { Empty: [] }, kind: { Conflict: [] } }])))
      .toEqual([getter({ id: empty, kind: conflict })])
  })

  it("reads an empty array as an empty array (which matches nothing)", () => {
    expect(decoded(decode(GetSelectorsJson, []))).toEqual([])
  })

  it("rejects a single selector in place of the array (docs/reference.md §4)", () => {
    expect(rejection(decode(GetSelectorsJson, { id: { Exactly: "getter:temp@sim" } })))
      .toMatch(/^body: expected an array of GetSelector/)
  })

  it("rejects an unknown field, naming it", () => {
    expect(rejection(decode(GetSelectorsJson, [{ service_tags: ["hall"] }])))
      .toMatch(/^body\[0\]: unknown field "service_tags"/)
    expect(rejection(decode(GetSelectorsJson, [{ service: { Exactly: "service:hall@sim" } }])))
      .toMatch(/^body\[0\]: unknown field "service"/)
  })

  it("rejects an id written the vocabulary B way, unwrapped", () => {
    expect(rejection(decode(GetSelectorsJson, [{ id: "getter:temp@sim" }]))).toMatch(/^body\[0\]\.id: expected \{"Exactly": …}/)
  })

  it("rejects an unknown constraint and a marker that holds something", () => {
    expect(rejection(decode(GetSelectorsJson, [{ id: { Any: [] } }]))).toMatch(/^body\[0\]\.id: unknown constraint "Any"/)
    expect(rejection(decode(GetSelectorsJson, [{ id: { Empty: {} } }]))).toBe("body[0].id.Empty: expected an empty array []")
  })

  it("rejects an unknown kind, naming the path", () => {
    expect(rejection(decode(GetSelectorsJson, [{ kind: { Exactly: { Toaster: [] } } }])))
      .toBe(`body[0].kind.Exactly: unknown kind "Toaster"`)
  })

  it("applies the identifier rules of docs/reference.md §1 to ids", () => {
    expect(rejection(decode(GetSelectorsJson, [{ id: { Exactly: "" } }]))).toBe("body[0].id.Exactly: must not be empty")
    expect(rejection(decode(GetSelectorsJson, [{ parent: { Exactly: "x".repeat(257) } }])))
      .toBe("body[0].parent.Exactly: must be at most 256 characters")
    expect(decoded(decode(GetSelectorsJson, [{ parent: { Exactly: "x".repeat(256) } }]))).toHaveLength(1)
    expect(rejection(decode(GetSelectorsJson, [{ id: { Exactly: "a\nb" } }])))
      .toBe("body[0].id.Exactly: must not contain control characters")
    expect(rejection(decode(GetSelectorsJson, [{ id: { Exactly: 7 } }]))).toMatch(/^body\[0\]\.id\.Exactly: expected a channel id/)
  })

  it("applies the tag rules of docs/reference.md §1 to tags, naming the bad one", () => {
    expect(rejection(decode(GetSelectorsJson, [{ tags: ["ok", "bell\u0007"] }])))
      .toBe("body[0].tags[1]: must not contain control characters")
    expect(rejection(decode(GetSelectorsJson, [{ tags: [""] }]))).toBe("body[0].tags[0]: must not be empty")
    expect(rejection(decode(GetSelectorsJson, [{ tags: "kitchen" }]))).toMatch(/^body\[0\]\.tags: expected an array of strings/)
  })

  it("validates the whole body: one bad selector anywhere rejects it all", () => {
    const body = [{}, { tags: ["a"] }, { kind: { Exactly: { OnOff: [] } }, extra: 1 }, {}]
    expect(rejection(decode(GetSelectorsJson, body))).toMatch(/^body\[2\]: unknown field "extra"/)
  })

  it("writes only the constrained fields, ids and kinds wrapped in Exactly", () => {
    const selector = getter({
      id: exactly(ChannelId.make("getter:temp@sim")),
      kind: exactly(builtinKind("Thermostat")),
      service: conflict,
      tags: [Tag.make("b"), Tag.make("a")]
    })
    expect(decoded(encode(GetSelectorsJson, [selector, getter({})]))).toEqual([
      {
        id: { Exactly: "getter:temp@sim" },
        parent: { Conflict: [] },
        tags: ["a", "b"],
        kind: { Exactly: { Thermostat: [] } }
      },
      {}
    ])
  })

  it("cannot write a selector on the node's tags: A has no service_tags", () => {
    expect(unexpressible(encode(GetSelectorsJson, [getter({ serviceTags: [Tag.make("hall")] })]))).toMatch(/service_tags/)
  })

  it("cannot write a selector of setters, or of either mechanism, as a GetSelector", () => {
    expect(unexpressible(encode(GetSelectorsJson, [channelSelector({ mechanism: exactly("setter") })])))
      .toMatch(/GetSelector selects getters only, this selector setters only/)
    expect(unexpressible(encode(GetSelectorsJson, [channelSelector({})]))).toMatch(/either mechanism/)
  })

  it("reads back what it writes: decode(encode(s)) = s", () => {
    fc.assert(fc.property(fc.array(getSelector, { maxLength: 3 }), (selectors) => {
      expect(decoded(decode(GetSelectorsJson, onTheWire(decoded(encode(GetSelectorsJson, selectors)))))).toEqual(selectors)
    }))
  })
})

describe("SetSelector", () => {
  it("has the fields of a GetSelector and selects setters: the mechanism is Exactly setter", () => {
    expect(decoded(decode(SetSelectorsJson, [{ id: { Exactly: "setter:door@sim" } }])))
      .toEqual([channelSelector({ mechanism: exactly("setter"), id: exactly(ChannelId.make("setter:door@sim")) })])
  })

  it("rejects an unknown field, naming it", () => {
    expect(rejection(decode(SetSelectorsJson, [{ push: [0] }]))).toMatch(/^body\[0\]: unknown field "push"/)
  })

  it("cannot write a selector of getters as a SetSelector", () => {
    expect(unexpressible(encode(SetSelectorsJson, [getter({})]))).toMatch(/SetSelector selects setters only/)
  })

  it("reads back what it writes: decode(encode(s)) = s", () => {
    fc.assert(fc.property(fc.array(setSelector, { maxLength: 3 }), (selectors) => {
      expect(decoded(decode(SetSelectorsJson, onTheWire(decoded(encode(SetSelectorsJson, selectors)))))).toEqual(selectors)
    }))
  })
})

describe("channel tag selector (GetSelector or SetSelector, /api/v1/channels/tag)", () => {
  it("leaves the mechanism open, so that it tags channels of either mechanism", () => {
    expect(decoded(decode(ChannelTagSelectorsJson, [{ tags: ["kitchen"] }])))
      .toEqual([channelSelector({ mechanism: empty, tags: [Tag.make("kitchen")] })])
  })

  it("cannot write a selector fixed to one mechanism (the B getter/setter tag aliases)", () => {
    expect(unexpressible(encode(ChannelTagSelectorsJson, [getter({})]))).toMatch(/either mechanism, this selector getters only/)
  })

  it("reads back what it writes: decode(encode(s)) = s", () => {
    fc.assert(fc.property(fc.array(channelTagSelector, { maxLength: 3 }), (selectors) => {
      const json = onTheWire(decoded(encode(ChannelTagSelectorsJson, selectors)))
      expect(decoded(decode(ChannelTagSelectorsJson, json))).toEqual(selectors)
    }))
  })
})
