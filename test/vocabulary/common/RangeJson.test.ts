import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Range } from "../../../src/domain/index.ts"
import { RangeJson } from "../../../src/vocabulary/common/RangeJson.ts"
import { range } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "./expectations.ts"
import { decode as decodeShape } from "../../../src/vocabulary/common/WireIssue.ts"

const decode = (json: unknown) => decodeShape(RangeJson, json, [0, "range"])
const celsius = (degrees: number) => ({ Temperature: { C: degrees } })

describe("ranges on the wire (docs/reference.md §7)", () => {
  it("read and write the five forms", () => {
    const examples: ReadonlyArray<readonly [unknown, Range]> = [
      [{ Eq: { OnOff: "On" } }, { _tag: "Eq", value: { _tag: "OnOff", state: "On" } }],
      [{ Leq: celsius(18) }, { _tag: "Leq", value: { _tag: "Temperature", unit: "C", degrees: 18 } }],
      [{ Geq: celsius(25) }, { _tag: "Geq", value: { _tag: "Temperature", unit: "C", degrees: 25 } }],
      [{ BetweenEq: [celsius(18), celsius(25)] }, {
        _tag: "BetweenEq",
        low: { _tag: "Temperature", unit: "C", degrees: 18 },
        high: { _tag: "Temperature", unit: "C", degrees: 25 }
      }],
      [{ OutOfStrict: [{ Duration: 1 }, { Duration: 2 }] }, {
        _tag: "OutOfStrict",
        low: { _tag: "Duration", seconds: 1 },
        high: { _tag: "Duration", seconds: 2 }
      }]
    ]
    for (const [json, model] of examples) {
      expect(decoded(decode(json))).toEqual(model)
      expect(RangeJson.write(model)).toEqual(json)
    }
  })

  it("refuse bounds of different types", () => {
    expect(rejection(decode({ BetweenEq: [celsius(18), { Duration: 3 }] }))).toBe(
      "body[0].range.BetweenEq: both bounds must have one type, got Temperature and Duration"
    )
  })

  it("refuse a pair that is not two values, naming the bad bound", () => {
    expect(rejection(decode({ BetweenEq: [celsius(1)] }))).toBe(
      "body[0].range.BetweenEq: expected a pair of values [low, high], got 1 items"
    )
    expect(rejection(decode({ OutOfStrict: [celsius(1), { Color: { h: 0, s: 2, v: 0 } }] }))).toBe(
      "body[0].range.OutOfStrict[1].Color.s: must be between 0 and 1"
    )
  })

  it("refuse an unknown form", () => {
    expect(rejection(decode({ Between: [] }))).toMatch(/^body\[0\]\.range: unknown range "Between" \(expected \{"Eq": V\}/)
  })

  it("decode(encode(r)) = r, also through JSON text", () => {
    fc.assert(fc.property(range, (r) => {
      expect(decoded(decode(RangeJson.write(r)))).toEqual(r)
      expect(decoded(decode(onTheWire(RangeJson.write(r))))).toEqual(r)
    }))
  })
})
