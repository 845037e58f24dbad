import { type Constraint, empty } from "../../domain/Constraint.ts"
import type { Absence } from "../common/WireRecord.ts"
import { keyedForm, keyedUnion } from "../common/WireSchema.ts"
import { plain, type WirePart } from "../common/WireShape.ts"
import { EmptyArrayJson } from "./EmptyMarker.ts"

/**
 * A selector field in vocabulary A (docs/reference.md §4): `{"Exactly": x}`, `{"Empty": []}` (no constraint) or
 * `{"Conflict": []}` (matches nothing), as the domain's Constraint. An absent field is `Empty`:
 * selectors leave `Empty` fields out.
 */
const forms = `{"Exactly": …}, {"Empty": []} or {"Conflict": []}`

const marker = plain(EmptyArrayJson)

export const ConstraintJson = <T, W>(value: WirePart<T, W>): WirePart<Constraint<T>, unknown> =>
  keyedUnion<Constraint<T>>(
    {
      Exactly: keyedForm("Exactly", value, (v): Constraint<T> & { readonly _tag: "Exactly" } => ({ _tag: "Exactly", value: v }), (c) => c.value),
      Empty: keyedForm("Empty", marker, () => ({ _tag: "Empty" }) as const, () => [] as const),
      Conflict: keyedForm("Conflict", marker, () => ({ _tag: "Conflict" }) as const, () => [] as const)
    },
    forms,
    (key) => `unknown constraint ${JSON.stringify(key)}, expected ${forms}`
  )

/** A selector field: absent, it constrains nothing; `Empty`, it is left out (`Conflict` is written: A has the word). */
export const unconstrained: Absence<Constraint<never>> = { absent: empty, leftOut: (c) => c._tag === "Empty" }
