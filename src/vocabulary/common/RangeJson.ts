import { Result } from "effect"
import type { Range } from "../../domain/Range.ts"
import type { Value } from "../../domain/Value.ts"
import type { InputPath } from "./InvalidInput.ts"
import { type Decoded, invalid, readArray, readSingleKey } from "./JsonInput.ts"
import { decodeValue, encodeValue } from "./ValueJson.ts"

/**
 * Ranges for watching (wire.md §7): `{"Eq": V}`, `{"Leq": V}`, `{"Geq": V}`, `{"BetweenEq": [V, V]}`,
 * `{"OutOfStrict": [V, V]}`. The bounds of a two-bound range must be of one type.
 */
const rangeForms = `{"Eq": V}, {"Leq": V}, {"Geq": V}, {"BetweenEq": [V, V]} or {"OutOfStrict": [V, V]}`

const decodeBounds = (json: unknown, path: InputPath): Decoded<readonly [Value, Value]> =>
  Result.gen(function*() {
    const bounds = yield* readArray(json, path, "a pair of values [low, high]")
    const [lowJson, highJson] = bounds
    if (bounds.length !== 2) return yield* invalid(path, `expected a pair of values [low, high], got ${bounds.length} items`)
    const low = yield* decodeValue(lowJson, [...path, 0])
    const high = yield* decodeValue(highJson, [...path, 1])
    if (low._tag !== high._tag) {
      return yield* invalid(path, `both bounds must have one type, got ${low._tag} and ${high._tag}`)
    }
    return [low, high] as const
  })

export const decodeRange = (json: unknown, path: InputPath = []): Decoded<Range> =>
  Result.flatMap(readSingleKey(json, path, `a range: ${rangeForms}`), ([form, payload]): Decoded<Range> => {
    const at = [...path, form]
    switch (form) {
      case "Eq":
      case "Leq":
      case "Geq":
        return Result.map(decodeValue(payload, at), (value) => ({ _tag: form, value }))
      case "BetweenEq":
      case "OutOfStrict":
        return Result.map(decodeBounds(payload, at), ([low, high]) => ({ _tag: form, low, high }))
      default:
        return invalid(path, `unknown range ${JSON.stringify(form)} (expected ${rangeForms})`)
    }
  })

export const encodeRange = (range: Range): unknown => {
  switch (range._tag) {
    case "Eq":
    case "Leq":
    case "Geq":
      return { [range._tag]: encodeValue(range.value) }
    case "BetweenEq":
    case "OutOfStrict":
      return { [range._tag]: [encodeValue(range.low), encodeValue(range.high)] }
  }
}
