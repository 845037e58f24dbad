import * as Schema from "effect/Schema"
import { Range } from "../../domain/Range.ts"
import type { Value } from "../../domain/Value.ts"
import { describeJson, isJsonObject } from "./DescribeJson.ts"
import { DOCS } from "./Docs.ts"
import { ValueInputJson } from "./ValueJson.ts"
import { explainedBy, keyedForm, keyedUnion, wireCheck } from "./WireSchema.ts"
import { annotated, wireShape } from "./WireShape.ts"

/**
 * Ranges for watching (docs/reference.md §7): `{"Eq": V}`, `{"Leq": V}`, `{"Geq": V}`, `{"BetweenEq": [V, V]}`,
 * `{"OutOfStrict": [V, V]}`. The bounds of a two-bound range must be of one type.
 */
const rangeForms = `{"Eq": V}, {"Leq": V}, {"Geq": V}, {"BetweenEq": [V, V]} or {"OutOfStrict": [V, V]}`

const pairOfValues = "a pair of values [low, high]"

const Pair = Schema.Tuple([ValueInputJson.wire, ValueInputJson.wire])

/** The type a value's JSON names: its one key, or Unit for FoxBox's bare `null`. */
const typeOf = (json: unknown): string => (isJsonObject(json) ? Object.keys(json)[0] ?? "" : "Unit")

const Bounds = Pair.check(wireCheck(([low, high]: readonly [unknown, unknown]) =>
  typeOf(low) === typeOf(high) || `both bounds must have one type, got ${typeOf(low)} and ${typeOf(high)}`
)).annotate({
  description: DOCS ? "[low, high], both of one value type." : "",
  ...explainedBy((input) =>
    !Array.isArray(input)
      ? `expected ${pairOfValues}, got ${describeJson(input)}`
      : input.length === 2
      ? Bounds
      : `expected ${pairOfValues}, got ${input.length} items`
  )
})

const bounds = (description: string) => ({
  wire: Bounds.annotate({ description }),
  read: ([low, high]: readonly [unknown, unknown]) => [ValueInputJson.read(low), ValueInputJson.read(high)] as const,
  write: ([low, high]: readonly [Value, Value]) => [ValueInputJson.write(low), ValueInputJson.write(high)] as const
})

export const RangeJson = wireShape(annotated(
  keyedUnion<Range>(
    {
      Eq: keyedForm("Eq", ValueInputJson, (value) => ({ _tag: "Eq", value }) as const, (r) => r.value),
      Leq: keyedForm("Leq", ValueInputJson, (value) => ({ _tag: "Leq", value }) as const, (r) => r.value),
      Geq: keyedForm("Geq", ValueInputJson, (value) => ({ _tag: "Geq", value }) as const, (r) => r.value),
      BetweenEq: keyedForm(
        "BetweenEq",
        bounds(DOCS ? "Between the bounds, inclusive." : ""),
        ([low, high]) => ({ _tag: "BetweenEq", low, high }) as const,
        (r) => [r.low, r.high] as const
      ),
      OutOfStrict: keyedForm(
        "OutOfStrict",
        bounds(DOCS ? "Outside the bounds, strictly." : ""),
        ([low, high]) => ({ _tag: "OutOfStrict", low, high }) as const,
        (r) => [r.low, r.high] as const
      )
    },
    `a range: ${rangeForms}`,
    (form) => `unknown range ${JSON.stringify(form)} (expected ${rangeForms})`
  ),
  { identifier: "Range", description: DOCS ? "A range of values, for watching (docs/reference.md §7, vocabulary B)." : "" }
), Range)
