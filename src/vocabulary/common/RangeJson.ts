import { Schema, SchemaTransformation } from "effect"
import { Range } from "../../domain/Range.ts"
import { describeJson } from "./DescribeJson.ts"
import { ValueInputJson } from "./ValueJson.ts"
import { decodeWith, encodeTotal } from "./WireIssue.ts"
import { explainedBy, keyedUnion } from "./WireSchema.ts"

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

const transform = SchemaTransformation.transform

export const RangeJson = keyedUnion(
  {
    Eq: Schema.Struct({ Eq: ValueInputJson }).pipe(Schema.decodeTo(
      Schema.toType(Range.cases.Eq),
      transform({ decode: (j) => ({ _tag: "Eq", value: j.Eq }) as const, encode: (r) => ({ Eq: r.value }) })
    )),
    Leq: Schema.Struct({ Leq: ValueInputJson }).pipe(Schema.decodeTo(
      Schema.toType(Range.cases.Leq),
      transform({ decode: (j) => ({ _tag: "Leq", value: j.Leq }) as const, encode: (r) => ({ Leq: r.value }) })
    )),
    Geq: Schema.Struct({ Geq: ValueInputJson }).pipe(Schema.decodeTo(
      Schema.toType(Range.cases.Geq),
      transform({ decode: (j) => ({ _tag: "Geq", value: j.Geq }) as const, encode: (r) => ({ Geq: r.value }) })
    )),
    BetweenEq: Schema.Struct({ BetweenEq: Bounds.annotate({ description: "Between the bounds, inclusive." }) }).pipe(Schema.decodeTo(
      Schema.toType(Range.cases.BetweenEq),
      transform({
        decode: ({ BetweenEq: [low, high] }) => ({ _tag: "BetweenEq", low, high }) as const,
        encode: (r) => ({ BetweenEq: [r.low, r.high] as const })
      })
    )),
    OutOfStrict: Schema.Struct({ OutOfStrict: Bounds.annotate({ description: "Outside the bounds, strictly." }) }).pipe(Schema.decodeTo(
      Schema.toType(Range.cases.OutOfStrict),
      transform({
        decode: ({ OutOfStrict: [low, high] }) => ({ _tag: "OutOfStrict", low, high }) as const,
        encode: (r) => ({ OutOfStrict: [r.low, r.high] as const })
      })
    ))
  },
  `a range: ${rangeForms}`,
  (form) => `unknown range ${JSON.stringify(form)} (expected ${rangeForms})`
).annotate({ identifier: "Range", description: "A range of values, for watching (§7, vocabulary B)." })

export const decodeRange = decodeWith(RangeJson)
export const encodeRange = encodeTotal(RangeJson)
