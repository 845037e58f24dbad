import * as fc from "fast-check"
import { Option, Result, Schema } from "effect"
import { expect } from "vitest"
import { compareValues, contains, Range, type Value } from "../../src/domain/index.ts"
import { law } from "../laws/law.ts"

/**
 * The range laws (docs/laws.md): what a watch's range contains. Values of one type at a time, so that
 * ranges and values meet; small pools so that bounds are often hit.
 */
const ofType: Record<string, fc.Arbitrary<Value>> = {
  Unit: fc.constant({ _tag: "Unit" }),
  OnOff: fc.constantFrom("On", "Off").map((state) => ({ _tag: "OnOff", state })),
  OpenClosed: fc.constantFrom("Open", "Closed").map((state) => ({ _tag: "OpenClosed", state })),
  DoorLocked: fc.constantFrom("Locked", "Unlocked").map((state) => ({ _tag: "DoorLocked", state })),
  Duration: fc.integer({ min: 0, max: 20 }).map((seconds) => ({ _tag: "Duration", seconds })),
  TimeStamp: fc.integer({ min: 0, max: 20 }).map((epochMillis) => ({ _tag: "TimeStamp", epochMillis })),
  Temperature: fc.record({ unit: fc.constantFrom("C" as const, "F" as const), degrees: fc.integer({ min: -10, max: 60 }) })
    .map((t) => ({ _tag: "Temperature", ...t })),
  String: fc.constantFrom("a", "b", "c", "ab").map((value) => ({ _tag: "String", value })),
  ExtBool: fc.boolean().map((value) => ({ _tag: "ExtBool", value, vendor: "v", adapter: "a", kind: "k" })),
  ExtNumeric: fc.integer({ min: 0, max: 5 }).map((value) => ({ _tag: "ExtNumeric", value, vendor: "v", adapter: "a", kind: "k" }))
}
const orderedTypes = Object.keys(ofType)
const values = (type: string): fc.Arbitrary<Value> => ofType[type] ?? fc.constant({ _tag: "Unit" })
const type = fc.constantFrom(...orderedTypes)
const twoOfOneType = type.chain((t) => fc.tuple(values(t), values(t)))
const threeOfOneType = type.chain((t) => fc.tuple(values(t), values(t), values(t)))
/** Ranges of every form, their bounds of one type. */
const ranges: fc.Arbitrary<Range> = twoOfOneType.chain(([a, b]) =>
  fc.constantFrom<Range>(
    { _tag: "Eq", value: a },
    { _tag: "Leq", value: a },
    { _tag: "Geq", value: a },
    { _tag: "BetweenEq", low: a, high: b },
    { _tag: "OutOfStrict", low: a, high: b }
  ))
const order = (a: Value, b: Value): number => Option.getOrElse(compareValues(a, b), () => Number.NaN)

/** The plain order of each ordered type, written apart from compareValues: a number to compare by. */
const rank = (v: Value): number | string => {
  switch (v._tag) {
    case "OnOff":
      return v.state === "On" ? 1 : 0
    case "OpenClosed":
      return v.state === "Open" ? 1 : 0
    case "DoorLocked":
      return v.state === "Locked" ? 1 : 0
    case "Duration":
      return v.seconds
    case "TimeStamp":
      return v.epochMillis
    case "Temperature":
      return v.unit === "C" ? v.degrees : (v.degrees - 32) * 5 / 9
    case "String":
      return v.value
    case "ExtBool":
      return v.value ? 1 : 0
    case "ExtNumeric":
      return v.value
    default:
      return 0
  }
}

law("range: compareValues orders each type as its plain order", { of: "pairs of different values", floor: 0.4 }, 100, (note) =>
  fc.property(twoOfOneType, ([a, b]) => {
    const [x, y] = [rank(a), rank(b)]
    const plain = x < y ? -1 : x > y ? 1 : 0
    // Compared as booleans: a sign of -0 is 0.
    expect(Math.sign(order(a, b)) === plain).toBe(true)
    expect(Math.sign(order(b, a)) === -plain).toBe(true)
    note(plain !== 0)
  }))

law("range: Eq contains exactly the values equal to its bound", { of: "values on the bound", floor: 0.15 }, 100, (note) =>
  fc.property(twoOfOneType, ([bound, v]) => {
    expect(contains({ _tag: "Eq", value: bound }, v)).toBe(order(v, bound) === 0)
    note(order(v, bound) === 0)
  }))

law("range: Leq and Geq contain the values on their side of the bound, the bound included", { of: "values off the bound", floor: 0.4 }, 100, (note) =>
  fc.property(twoOfOneType, ([bound, v]) => {
    expect(contains({ _tag: "Leq", value: bound }, v)).toBe(order(v, bound) <= 0)
    expect(contains({ _tag: "Geq", value: bound }, v)).toBe(order(v, bound) >= 0)
    note(order(v, bound) !== 0)
  }))

law("range: BetweenEq is Geq low and Leq high; OutOfStrict is its complement", { of: "values between the bounds", floor: 0.15 }, 100, (note) =>
  fc.property(threeOfOneType, ([low, high, v]) => {
    const between = contains({ _tag: "Geq", value: low }, v) && contains({ _tag: "Leq", value: high }, v)
    expect(contains({ _tag: "BetweenEq", low, high }, v)).toBe(between)
    expect(contains({ _tag: "OutOfStrict", low, high }, v)).toBe(!between)
    note(between)
  }))

law("range: a range never contains a value of another type than its own", { of: "ranges of an ordered type", floor: 0.75 }, 100, (note) => {
  const otherType = fc.constantFrom(...orderedTypes).chain(values)
  return fc.property(ranges, otherType, (range, v) => {
    const type = "value" in range ? range.value._tag : range.low._tag
    fc.pre(type !== v._tag)
    expect(contains(range, v)).toBe(false)
    note(type !== "Unit")
  })
})

/** Values of the types without an order, from small pools so that two are often equal. */
const unordered: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom(0, 120).map((h): Value => ({ _tag: "Color", h, s: 1, v: 1 })),
  fc.constantFrom<Value>({ _tag: "Json", value: { a: 1, b: [2] } }, { _tag: "Json", value: { b: [2], a: 1 } }, { _tag: "Json", value: [] }),
  fc.constantFrom(0, 1).map((d): Value => ({ _tag: "Binary", data: [d], mimetype: "x" }))
)

law("range: a type without order: Eq contains the equal values, no other range any", { of: "values equal to the bound", floor: 0.05 }, { laws: 100, npmTest: 100 }, (note) =>
  fc.property(unordered, unordered, (bound, v) => {
    const equal = v._tag === bound._tag && JSON.stringify(canonical(v)) === JSON.stringify(canonical(bound))
    expect(contains({ _tag: "Eq", value: bound }, v)).toBe(equal)
    for (const range of [{ _tag: "Leq", value: bound }, { _tag: "Geq", value: bound }, { _tag: "BetweenEq", low: bound, high: v }, { _tag: "OutOfStrict", low: bound, high: v }] as const) {
      expect(contains(range, v)).toBe(false)
    }
    note(equal)
  }))

/** A value with its objects' keys sorted: two Json values are equal whatever their keys' order. */
const canonical = (x: unknown): unknown =>
  Array.isArray(x)
    ? x.map(canonical)
    : typeof x === "object" && x !== null
    ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, canonical(v)]))
    : x

/**
 * Two extension values that differ in their vendor, adapter or kind only, or in their type only (a
 * boolean and a number of one extension).
 */
const otherExtension = fc.tuple(
  fc.constantFrom("ExtBool", "ExtNumeric"),
  fc.constantFrom("vendor", "adapter", "kind", "type")
).map(([type, field]): [Value, Value] => {
  const ext = { vendor: "v", adapter: "a", kind: "k" }
  const other = field === "type" ? ext : { ...ext, [field]: "other" }
  const bool: Value = { _tag: "ExtBool", value: true, ...ext }
  const number: Value = { _tag: "ExtNumeric", value: 1, ...ext }
  if (field === "type") return type === "ExtBool" ? [bool, number] : [number, bool]
  return type === "ExtBool" ? [bool, { ...bool, ...other }] : [number, { ...number, ...other }]
})

const twoTypes = fc.tuple(type.chain(values), type.chain(values)).filter(([a, b]) => a._tag !== b._tag)

law("range: compareValues has no order between two types, nor between two extensions", { of: "pairs of two types", floor: 0.3 }, 100, (note) =>
  fc.property(fc.oneof(twoTypes, otherExtension), ([a, b]) => {
    expect(Option.isNone(compareValues(a, b))).toBe(true)
    note(a._tag !== b._tag)
  }))

law("range: a range reads back as itself", { of: "ranges with two bounds", floor: 0.2 }, 100, (note) => {
  const read = Schema.decodeUnknownResult(Range)
  return fc.property(ranges, (range) => {
    expect(read(range)).toEqual(Result.succeed(range))
    const { _tag } = range
    expect(Result.isFailure(read({ _tag }))).toBe(true)
    note("low" in range)
  })
})
