import * as fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { ChannelId, channelSelector, conflict, exactly, type WatchTarget } from "../../../src/domain/index.ts"
import { WatchFrameJson } from "../../../src/vocabulary/b/index.ts"
import { getterSelector, watchTarget } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "../common/expectations.ts"
import { decode, encode } from "../../../src/vocabulary/common/WireIssue.ts"

const getter = exactly("getter" as const)
const thermometer = channelSelector({ id: exactly(ChannelId.make("getter:t@sim")), mechanism: getter })
const warm = { Geq: { Temperature: { C: 25 } } }
const warmRange = { _tag: "Geq", value: { _tag: "Temperature", unit: "C", degrees: 25 } } as const

describe("the watch frame of vocabulary B (docs/reference.md §7)", () => {
  it("[{\"select\": sel(s), \"range\": R}] watches values in the range, and always topology", () => {
    expect(decoded(decode(WatchFrameJson, [{ select: { id: "getter:t@sim" }, range: warm }]))).toEqual([
      { selector: thermometer, values: { _tag: "InRange", range: warmRange }, topology: true, initialValues: false }
    ])
  })

  it("asks for current values with \"initial_values\": true on an entry, for each of its selectors, and writes it only when asked", () => {
    const targets = decoded(decode(WatchFrameJson, [{ select: [{ id: "getter:t@sim" }, { kind: "OnOff" }], initial_values: true }, {
      select: { id: "getter:t@sim" },
      initial_values: false
    }]))
    expect(targets.map((t) => t.initialValues)).toEqual([true, true, false])
    expect(onTheWire(decoded(encode(WatchFrameJson, targets.slice(1))))).toEqual([{ select: [{ kind: "OnOff" }], initial_values: true }, {
      select: [{ id: "getter:t@sim" }]
    }])
    expect(rejection(decode(WatchFrameJson, { select: {}, initial_values: 1 })))
      .toMatch(/^body\.initial_values: expected a boolean/)
  })

  it("accepts a single target in place of the array", () => {
    expect(decoded(decode(WatchFrameJson, { select: [{ id: "getter:t@sim" }], range: warm }))).toEqual(
      decoded(decode(WatchFrameJson, [{ select: { id: "getter:t@sim" }, range: warm }]))
    )
  })

  it("reads \"Never\" as no values, and an absent or null range as Always", () => {
    const filter = (json: unknown) => decoded(decode(WatchFrameJson, json))[0]?.values
    expect(filter({ select: {}, range: "Never" })).toEqual({ _tag: "Never" })
    expect(filter({ select: {} })).toEqual({ _tag: "Always" })
    expect(filter({ select: {}, range: null })).toEqual({ _tag: "Always" })
    expect(filter({ select: {}, range: "Always" })).toEqual({ _tag: "Always" })
  })

  it("gives one target per selector, each with the entry's range", () => {
    const targets = decoded(decode(WatchFrameJson, { select: [{ id: "a" }, { kind: "OnOff" }], range: "Never" }))
    expect(targets.map((t) => t.values)).toEqual([{ _tag: "Never" }, { _tag: "Never" }])
  })

  it("refuses a malformed frame with a readable message", () => {
    expect(rejection(decode(WatchFrameJson, [{ select: {}, range: "Sometimes" }]))).toBe(
      "body[0].range: expected a range such as {\"Geq\": V}, \"Never\", or null (always), got \"Sometimes\""
    )
    expect(rejection(decode(WatchFrameJson, [{ range: warm }]))).toBe("body[0]: missing field \"select\"")
    expect(rejection(decode(WatchFrameJson, [{ select: {}, range: { BetweenEq: [{ Duration: 1 }, { OnOff: "On" }] } }])))
      .toBe("body[0].range.BetweenEq: both bounds must have one type, got Duration and OnOff")
    expect(rejection(decode(WatchFrameJson, "watch"))).toMatch(/^body: expected \[\{"select": …, "range": …\}\]/)
  })

  it("decode(encode(w)) = w for registrations B can write", () => {
    const bTarget = watchTarget(getterSelector()).map((t): WatchTarget => ({ ...t, topology: true }))
    fc.assert(fc.property(fc.array(bTarget, { maxLength: 3 }), (registration) => {
      expect(decoded(decode(WatchFrameJson, onTheWire(decoded(encode(WatchFrameJson, registration)))))).toEqual(registration)
    }))
  })

  it("encoding refuses a registration without topology, and leaves out targets that match nothing", () => {
    const always = { _tag: "Always" } as const
    expect(Result.isFailure(encode(WatchFrameJson, [{ selector: thermometer, values: always, topology: false, initialValues: false }]))).toBe(true)
    const nothing = channelSelector({ id: conflict })
    expect(decoded(encode(WatchFrameJson, [
      { selector: nothing, values: always, topology: true, initialValues: false },
      { selector: thermometer, values: always, topology: true, initialValues: false }
    ]))).toEqual([{ select: [{ id: "getter:t@sim" }] }])
  })
})
