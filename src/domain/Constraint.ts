import * as Schema from "effect/Schema"

/**
 * A constraint on one field of a selector: `Empty` (no constraint), `Exactly` one value, or `Conflict`
 * (nothing can match: the AND of two different `Exactly`).
 */
export const Constraint = <S extends Schema.Top>(value: S) =>
  Schema.Union([
    Schema.TaggedStruct("Empty", {}),
    Schema.TaggedStruct("Exactly", { value }),
    Schema.TaggedStruct("Conflict", {})
  ])

export type Constraint<A> =
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Exactly"; readonly value: A }
  | { readonly _tag: "Conflict" }

export const empty: Constraint<never> = { _tag: "Empty" }
export const conflict: Constraint<never> = { _tag: "Conflict" }
export const exactly = <A>(value: A): Constraint<A> => ({ _tag: "Exactly", value })

/** The equality of values compared as they are (ids, mechanisms): what a constraint on them uses. */
export const same = <A>(x: A, y: A): boolean => x === y

/** The AND of two constraints, given an equality on values. */
export const andConstraint = <A>(a: Constraint<A>, b: Constraint<A>, equals: (x: A, y: A) => boolean): Constraint<A> => {
  if (a._tag === "Conflict" || b._tag === "Conflict") return conflict
  if (a._tag === "Empty") return b
  if (b._tag === "Empty") return a
  return equals(a.value, b.value) ? a : conflict
}

/** Whether two constraints are the same constraint, given an equality on values. */
export const sameConstraint = <A>(a: Constraint<A>, b: Constraint<A>, equals: (x: A, y: A) => boolean): boolean =>
  a._tag === "Exactly" && b._tag === "Exactly" ? equals(a.value, b.value) : a._tag === b._tag

export const satisfies = <A>(constraint: Constraint<A>, value: A, equals: (x: A, y: A) => boolean): boolean => {
  switch (constraint._tag) {
    case "Empty":
      return true
    case "Exactly":
      return equals(constraint.value, value)
    case "Conflict":
      return false
  }
}
