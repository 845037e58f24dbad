import { Result } from "effect"
import { conflict, type Constraint, empty, exactly } from "../../domain/Constraint.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import { type Decoded, invalid, readSingleKey } from "../common/JsonInput.ts"
import { readEmptyArray } from "./EmptyMarker.ts"

/**
 * A selector field in vocabulary A (wire.md §4): `{"Exactly": x}`, `{"Empty": []}` (no constraint) or
 * `{"Conflict": []}` (matches nothing). An absent field is `Empty`.
 */
const what = `{"Exactly": …}, {"Empty": []} or {"Conflict": []}`

export const decodeConstraint = <A>(
  json: unknown,
  path: InputPath,
  decodeExactly: (json: unknown, path: InputPath) => Decoded<A>
): Decoded<Constraint<A>> =>
  Result.flatMap(readSingleKey(json, path, what), ([key, payload]): Decoded<Constraint<A>> => {
    switch (key) {
      case "Exactly":
        return Result.map(decodeExactly(payload, [...path, key]), exactly)
      case "Empty":
        return Result.map(readEmptyArray(payload, [...path, key]), () => empty)
      case "Conflict":
        return Result.map(readEmptyArray(payload, [...path, key]), () => conflict)
      default:
        return invalid(path, `unknown constraint ${JSON.stringify(key)}, expected ${what}`)
    }
  })

/** The field's JSON, or `undefined` for `Empty`: an unconstrained field is left out of the selector. */
export const encodeConstraint = <A>(constraint: Constraint<A>, encodeExactly: (value: A) => unknown): unknown => {
  switch (constraint._tag) {
    case "Empty":
      return undefined
    case "Exactly":
      return { Exactly: encodeExactly(constraint.value) }
    case "Conflict":
      return { Conflict: [] }
  }
}
