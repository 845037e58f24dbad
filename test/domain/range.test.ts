import * as fc from "fast-check"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { compareValues, contains, type Range, type Value } from "../../src/domain/index.ts"

/** Values of one type at a time, so that ranges and values meet; small pools so that bounds are often hit. */
const ofType: Record<string, fc.Arbitrary<Value>> = {
  Unit: fc.constant({ _tag: "Unit" }),
  OnOff: fc.constantFrom("On", "Off").map((state) => ({ _tag: "OnOff", state })),
  Duration: fc.integer({ min: 0, max: 20 }).map((seconds) => ({ _tag: "Duration", seconds })),
  TimeStamp: fc.integer({ min: 0, max: 20 }).map((epochMillis) => ({ _tag: "TimeStamp", epochMillis })),
  Temperature: fc.record({ unit: fc.constantFrom("C" as const, "F" as const), degrees: fc.integer({ min: -10, max: 60 }) })
    .map((t) => ({ _tag: "Temperature", ...t })),
  String: fc.constantFrom("a", "b", "c", "ab").map((value) => ({ _tag: "String", value })),
  ExtNumeric: fc.integer({ min: 0, max: 5 }).map((value) => ({ _tag: "ExtNumeric", value, vendor: "v", adapter: "a", kind: "k" }))
}
const orderedTypes = Object.keys(ofType)
const values = (type: string): fc.Arbitrary<Value> => ofType[type] ?? fc.constant({ _tag: "Unit" })
const type = fc.constantFrom(...orderedTypes)
const twoOfOneType = type.chain((t) => fc.tuple(values(t), values(t)))
const threeOfOneType = type.chain((t) => fc.tuple(values(t), values(t), values(t)))
const order = (a: Value, b: Value): number => Option.getOrElse(compareValues(a, b), () => Number.NaN)

describe("Range.contains", () => {
  it("Eq contains exactly the values equal to its bound", () => {
    fc.assert(fc.property(twoOfOneType, ([bound, v]) => {
      expect(contains({ _tag: "Eq", value: bound }, v)).toBe(order(v, bound) === 0)
    }))
  })

  it("Leq and Geq contain the values on their side of the bound, the bound included", () => {
    fc.assert(fc.property(twoOfOneType, ([bound, v]) => {
      expect(contains({ _tag: "Leq", value: bound }, v)).toBe(order(v, bound) <= 0)
      expect(contains({ _tag: "Geq", value: bound }, v)).toBe(order(v, bound) >= 0)
    }))
  })

  it("BetweenEq is Geq low and Leq high; OutOfStrict is its complement", () => {
    fc.assert(fc.property(threeOfOneType, ([low, high, v]) => {
      const between = contains({ _tag: "Geq", value: low }, v) && contains({ _tag: "Leq", value: high }, v)
      expect(contains({ _tag: "BetweenEq", low, high }, v)).toBe(between)
      expect(contains({ _tag: "OutOfStrict", low, high }, v)).toBe(!between)
    }))
  })

  it("never contains a value of another type than the range's", () => {
    const ranges: fc.Arbitrary<Range> = twoOfOneType.chain(([a, b]) =>
      fc.constantFrom<Range>(
        { _tag: "Eq", value: a },
        { _tag: "Leq", value: a },
        { _tag: "Geq", value: a },
        { _tag: "BetweenEq", low: a, high: b },
        { _tag: "OutOfStrict", low: a, high: b }
      ))
    fc.assert(fc.property(ranges, fc.constantFrom(...orderedTypes).chain(values), (range, v) => {
      const type = "value" in range ? range.value._tag : range.low._tag
      fc.pre(type !== v._tag)
      expect(contains(range, v)).toBe(false)
    }))
  })

  it("compares temperatures in Celsius, whatever unit they were given in", () => {
    expect(contains({ _tag: "Eq", value: { _tag: "Temperature", unit: "C", degrees: 100 } }, { _tag: "Temperature", unit: "F", degrees: 212 })).toBe(true)
    expect(contains({ _tag: "Leq", value: { _tag: "Temperature", unit: "C", degrees: 20 } }, { _tag: "Temperature", unit: "F", degrees: 70 })).toBe(false)
  })

  it("orders two-state values Off < On, Closed < Open, Unlocked < Locked", () => {
    expect(contains({ _tag: "Geq", value: { _tag: "OnOff", state: "Off" } }, { _tag: "OnOff", state: "On" })).toBe(true)
    expect(contains({ _tag: "Leq", value: { _tag: "OpenClosed", state: "Closed" } }, { _tag: "OpenClosed", state: "Open" })).toBe(false)
    expect(contains({ _tag: "Geq", value: { _tag: "DoorLocked", state: "Locked" } }, { _tag: "DoorLocked", state: "Unlocked" })).toBe(false)
  })

  it("matches unordered types (Color, Json, Binary) only with Eq, by structure", () => {
    const red: Value = { _tag: "Color", h: 0, s: 1, v: 1 }
    expect(contains({ _tag: "Eq", value: red }, { _tag: "Color", h: 0, s: 1, v: 1 })).toBe(true)
    expect(contains({ _tag: "Leq", value: red }, red)).toBe(false)
    expect(contains({ _tag: "Eq", value: { _tag: "Json", value: { a: 1, b: [2] } } }, { _tag: "Json", value: { b: [2], a: 1 } })).toBe(true)
    expect(contains({ _tag: "OutOfStrict", low: red, high: red }, red)).toBe(false)
  })
})
