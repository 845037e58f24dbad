import { Schema, SchemaTransformation } from "effect"
import { keyedUnion } from "../common/WireSchema.ts"
import { EmptyArrayJson } from "./EmptyMarker.ts"

/**
 * A selector field in vocabulary A (wire.md §4): `{"Exactly": x}`, `{"Empty": []}` (no constraint) or
 * `{"Conflict": []}` (matches nothing), as the domain's Constraint. An absent field is `Empty`:
 * selectors leave `Empty` fields out.
 */
const forms = `{"Exactly": …}, {"Empty": []} or {"Conflict": []}`

const Empty = Schema.Struct({ Empty: EmptyArrayJson }).pipe(Schema.decodeTo(
  Schema.TaggedStruct("Empty", {}),
  SchemaTransformation.transform({ decode: () => ({ _tag: "Empty" }) as const, encode: () => ({ Empty: [] as const }) })
))

const Conflict = Schema.Struct({ Conflict: EmptyArrayJson }).pipe(Schema.decodeTo(
  Schema.TaggedStruct("Conflict", {}),
  SchemaTransformation.transform({ decode: () => ({ _tag: "Conflict" }) as const, encode: () => ({ Conflict: [] as const }) })
))

export const ConstraintJson = <T, E>(value: Schema.Codec<T, E>) => {
  // Typed by hand: a struct over a generic field is beyond what the checker can see through.
  const exactlyJson: Schema.Codec<{ readonly Exactly: T }, { readonly Exactly: E }> = Schema.Struct({ Exactly: value })
  return keyedUnion(
    {
      Exactly: exactlyJson.pipe(Schema.decodeTo(
        Schema.TaggedStruct("Exactly", { value: Schema.toType(value) }),
        SchemaTransformation.transform({
          decode: (json) => ({ _tag: "Exactly", value: json.Exactly }) as const,
          encode: (constraint) => ({ Exactly: constraint.value })
        })
      )),
      Empty,
      Conflict
    },
    forms,
    (key) => `unknown constraint ${JSON.stringify(key)}, expected ${forms}`
  )
}
