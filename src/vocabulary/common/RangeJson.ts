import { Schema } from "effect"
import { Range } from "../../domain/Range.ts"
import { describeJson } from "./DescribeJson.ts"
import { ValueInputJson } from "./ValueJson.ts"
import { decodeWith, encodeTotal } from "./WireIssue.ts"
import { explainedBy, keyedForm, keyedUnion } from "./WireSchema.ts"

/**
 * Ranges for watching (wire.md §7): `{"Eq": V}`, `{"Leq": V}`, `{"Geq": V}`, `{"BetweenEq": [V, V]}`,
 * `{"OutOfStrict": [V, V]}`. The bounds of a two-bound range must be of one type.
 */
const rangeForms = `{"Eq": V}, {"Leq": V}, {"Geq": V}, {"BetweenEq": [V, V]} or {"OutOfStrict": [V, V]}`

const pairOfValues = "a pair of values [low, high]"

const Pair = Schema.Tuple([ValueInputJson, ValueInputJson])

const Bounds = Pair.check(Schema.makeFilter(([low, high]) =>
  low._tag === high._tag || `both bounds must have one type, got ${low._tag} and ${high._tag}`
)).annotate({
  description: "[low, high], both of one value type.",
  ...explainedBy((input) =>
    !Array.isArray(input)
      ? `expected ${pairOfValues}, got ${describeJson(input)}`
      : input.length === 2
      ? Bounds
      : `expected ${pairOfValues}, got ${input.length} items`
  )
})

const { cases } = Range

export const RangeJson = keyedUnion(
  {
    Eq: keyedForm("Eq", ValueInputJson, cases.Eq, (value) => ({ _tag: "Eq", value }) as const, (r) => r.value),
    Leq: keyedForm("Leq", ValueInputJson, cases.Leq, (value) => ({ _tag: "Leq", value }) as const, (r) => r.value),
    Geq: keyedForm("Geq", ValueInputJson, cases.Geq, (value) => ({ _tag: "Geq", value }) as const, (r) => r.value),
    BetweenEq: keyedForm(
      "BetweenEq",
      Bounds.annotate({ description: "Between the bounds, inclusive." }),
      cases.BetweenEq,
      ([low, high]) => ({ _tag: "BetweenEq", low, high }) as const,
      (r) => [r.low, r.high] as const
    ),
    OutOfStrict: keyedForm(
      "OutOfStrict",
      Bounds.annotate({ description: "Outside the bounds, strictly." }),
      cases.OutOfStrict,
      ([low, high]) => ({ _tag: "OutOfStrict", low, high }) as const,
      (r) => [r.low, r.high] as const
    )
  },
  `a range: ${rangeForms}`,
  (form) => `unknown range ${JSON.stringify(form)} (expected ${rangeForms})`
).annotate({ identifier: "Range", description: "A range of values, for watching (§7, vocabulary B)." })

export const decodeRange = decodeWith(RangeJson)
export const encodeRange = encodeTotal(RangeJson)
