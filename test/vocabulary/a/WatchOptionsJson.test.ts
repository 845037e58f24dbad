import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { conflict, exactly } from "../../../src/domain/Constraint.ts"
import { ChannelId, Tag } from "../../../src/domain/Identifier.ts"
import { builtinKind } from "../../../src/domain/Kind.ts"
import { channelSelector } from "../../../src/domain/Selector.ts"
import { andChannel } from "../../../src/domain/SelectorAlgebra.ts"
import type { WatchTarget } from "../../../src/domain/Watch.ts"
import { GetSelectorsJson, WatchFrameJson } from "../../../src/vocabulary/a/index.ts"
import { range } from "../../arbitraries/domain.ts"
import { getSelector, watchTarget } from "./arbitraries.ts"
import { decoded, unexpressible, onTheWire, rejection } from "./expectations.ts"
import { decode, encode } from "../../../src/vocabulary/common/WireIssue.ts"

const getter = (fields: Parameters<typeof channelSelector>[0]) => channelSelector({ mechanism: exactly("getter"), ...fields })

describe("watch frame [WatchOptions]", () => {
  it("defaults should_watch_values, should_watch_topology and should_send_initial_values to false", () => {
    expect(decoded(decode(WatchFrameJson, [{ source: { tags: ["kitchen"] } }]))).toEqual([
      { selector: getter({ tags: [Tag.make("kitchen")] }), values: { _tag: "Never" }, topology: false, initialValues: false }
    ])
  })

  it("watches every value when should_watch_values is true, and topology when should_watch_topology is", () => {
    const frame = [{ source: {}, should_watch_values: true, should_watch_topology: true }]
    expect(decoded(decode(WatchFrameJson, frame))).toEqual([
      { selector: getter({}), values: { _tag: "Always" }, topology: true, initialValues: false }
    ])
  })

  it("asks for current values with should_send_initial_values, and writes it only when asked", () => {
    const frame = [{ source: {}, should_watch_values: true, should_watch_topology: false, should_send_initial_values: true }]
    const registration = decoded(decode(WatchFrameJson, frame))
    expect(registration).toEqual([{ selector: getter({}), values: { _tag: "Always" }, topology: false, initialValues: true }])
    expect(onTheWire(decoded(encode(WatchFrameJson, registration)))).toEqual(frame)
    expect(rejection(decode(WatchFrameJson, [{ source: {}, should_send_initial_values: "yes" }])))
      .toMatch(/^body\[0\]\.should_send_initial_values: expected a boolean/)
  })

  it("watches source ∧ narrow[0] ∧ narrow[1]", () => {
    const frame = [{
      source: { kind: { Exactly: { OnOff: [] } } },
      narrow: [{ tags: ["b"] }, { id: { Exactly: "getter:lamp@sim" }, tags: ["a"] }]
    }]
    expect(decoded(decode(WatchFrameJson, frame))[0]?.selector).toEqual(getter({
      kind: exactly(builtinKind("OnOff")),
      id: exactly(ChannelId.make("getter:lamp@sim")),
      tags: [Tag.make("a"), Tag.make("b")]
    }))
  })

  it("narrows to nothing when narrow names another id than source (Exactly ∧ other Exactly = Conflict)", () => {
    const frame = [{ source: { id: { Exactly: "getter:a@sim" } }, narrow: [{ id: { Exactly: "getter:b@sim" } }] }]
    expect(decoded(decode(WatchFrameJson, frame))[0]?.selector.id).toEqual(conflict)
  })

  it("narrows nothing with narrow absent or []", () => {
    const source = { tags: ["kitchen"] }
    expect(decoded(decode(WatchFrameJson, [{ source, narrow: [] }]))).toEqual(decoded(decode(WatchFrameJson, [{ source }])))
  })

  it("takes the AND of the domain's algebra for any source and narrowing selectors", () => {
    fc.assert(fc.property(getSelector, fc.array(getSelector, { maxLength: 3 }), (source, narrow) => {
      const [sourceJson, ...narrowJson] = decoded(encode(GetSelectorsJson, [source, ...narrow]))
      const frame = onTheWire([{ source: sourceJson, narrow: narrowJson }])
      expect(decoded(decode(WatchFrameJson, frame))[0]?.selector).toEqual(narrow.reduce(andChannel, source))
    }))
  })

  it("rejects a frame that is not an array", () => {
    expect(rejection(decode(WatchFrameJson, { source: {} }))).toMatch(/^body: expected an array of WatchOptions/)
  })

  it("rejects WatchOptions without a source", () => {
    expect(rejection(decode(WatchFrameJson, [{ should_watch_values: true }]))).toBe(`body[0]: missing field "source"`)
  })

  it("rejects a flag that is not a boolean, naming it", () => {
    expect(rejection(decode(WatchFrameJson, [{ source: {}, should_watch_values: "yes" }])))
      .toMatch(/^body\[0\]\.should_watch_values: expected a boolean/)
  })

  it("rejects an unknown field, naming it (B's range included)", () => {
    expect(rejection(decode(WatchFrameJson, [{ source: {}, range: "Never" }]))).toMatch(/^body\[0\]: unknown field "range"/)
  })

  it("rejects a bad narrowing selector, naming where it is", () => {
    expect(rejection(decode(WatchFrameJson, [{ source: {}, narrow: [{}, { kind: { Exactly: { Toaster: [] } } }] }])))
      .toBe(`body[0].narrow[1].kind.Exactly: unknown kind "Toaster"`)
  })

  it("writes a registration with the combined selector as source, no narrow, both flags", () => {
    const target: WatchTarget = { selector: getter({ tags: [Tag.make("kitchen")] }), values: { _tag: "Always" }, topology: false, initialValues: false }
    expect(onTheWire(decoded(encode(WatchFrameJson, [target])))).toEqual([
      { source: { tags: ["kitchen"] }, should_watch_values: true, should_watch_topology: false }
    ])
  })

  it("cannot write a watch on a range", () => {
    fc.assert(fc.property(range, (r) => {
      expect(unexpressible(encode(WatchFrameJson, [{ selector: getter({}), values: { _tag: "InRange", range: r }, topology: true, initialValues: false }])))
        .toMatch(/range/)
    }))
  })

  it("reads back what it writes: decode(encode(r)) = r", () => {
    fc.assert(fc.property(fc.array(watchTarget, { maxLength: 3 }), (registration) => {
      expect(decoded(decode(WatchFrameJson, onTheWire(decoded(encode(WatchFrameJson, registration)))))).toEqual(registration)
    }))
  })
})
