import * as fc from "fast-check"
import { Schema } from "effect"
import { expect } from "vitest"
import { Value, valueEquals } from "../../src/domain/Value.ts"
import { value } from "../arbitraries/domain.ts"
import { law } from "../laws/law.ts"

/**
 * The value law (docs/laws.md): `valueEquals` compares the fields of most types itself, and must say what
 * the schema's equality says. Pairs of one type from small pools (so that they are often equal, or differ
 * in one field), a value and a copy of it, and any two values.
 */
const bySchema = Schema.toEquivalence(Value)

const few = <const A>(...items: ReadonlyArray<A>) => fc.constantFrom(...items)
const vendors = fc.record({ vendor: few("v", "w"), adapter: few("a", "b"), kind: few("k", "l") })

const ofType: ReadonlyArray<fc.Arbitrary<Value>> = [
  fc.constant({ _tag: "Unit" }),
  few("On", "Off").map((state) => ({ _tag: "OnOff", state })),
  few("Open", "Closed").map((state) => ({ _tag: "OpenClosed", state })),
  few("Locked", "Unlocked").map((state) => ({ _tag: "DoorLocked", state })),
  few(0, -0, 1, 2.5).map((seconds) => ({ _tag: "Duration", seconds })),
  few(0, 1, 1_700_000_000_000).map((epochMillis) => ({ _tag: "TimeStamp", epochMillis })),
  fc.record({ unit: few("C", "F"), degrees: few(0, -0, 20, 68) }).map((t) => ({ _tag: "Temperature", ...t })),
  fc.record({ h: few(0, 120), s: few(0, 1), v: few(0.5, 1) }).map((c) => ({ _tag: "Color", ...c })),
  few("", "a", "b").map((text) => ({ _tag: "String", value: text })),
  few<Schema.Json>(null, 1, "a", [1, 2], { a: 1, b: [null] }, { b: [null], a: 1 }).map((json) => ({ _tag: "Json", value: json })),
  fc.record({ data: few([], [1, 2], [2, 1]), mimetype: few("a/b", "c/d") }).map((b) => ({ _tag: "Binary", ...b })),
  fc.record({ value: fc.boolean(), ext: vendors }).map(({ ext, value }) => ({ _tag: "ExtBool", value, ...ext })),
  fc.record({ value: few(0, 1), ext: vendors }).map(({ ext, value }) => ({ _tag: "ExtNumeric", value, ...ext }))
]

const pairs: fc.Arbitrary<readonly [Value, Value]> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ofType).chain((type) => fc.tuple(type, type)) },
  { weight: 1, arbitrary: value.map((v): readonly [Value, Value] => [v, structuredClone(v)]) },
  { weight: 2, arbitrary: fc.tuple(value, value) }
)

law("value: valueEquals says what the schema's equality says", { of: "pairs of equal values", floor: 0.2 }, 300, (note) =>
  fc.property(pairs, ([a, b]) => {
    const equal = bySchema(a, b)
    expect(valueEquals(a, b)).toBe(equal)
    expect(valueEquals(b, a)).toBe(equal)
    note(equal)
  }))
