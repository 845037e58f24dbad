import { Result } from "effect"
import type { ValueFilter, WatchRegistration, WatchTarget } from "../../domain/Watch.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  describeJson,
  field,
  invalid,
  isJsonObject,
  readEach,
  readObjectWithKeys,
  requiredField
} from "../common/JsonInput.ts"
import { decodeRange, encodeRange } from "../common/RangeJson.ts"
import { Unexpressible } from "../common/Unexpressible.ts"
import { decodeGetterSelectors, encodeGetterSelector } from "./SelectorJson.ts"

/**
 * The watch frame of vocabulary B (wire.md §7): `[{"select": GetterSelector(s), "range": R}]`, a single
 * object accepted in place of the array. R is a Range, `"Never"`, or absent/`null` for Always (`"Always"`
 * is read too). B always announces topology: every target has `topology` true.
 */
const decodeValueFilter = (json: unknown, path: InputPath): Decoded<ValueFilter> => {
  if (json === undefined || json === null || json === "Always") return Result.succeed({ _tag: "Always" })
  if (json === "Never") return Result.succeed({ _tag: "Never" })
  if (isJsonObject(json)) return Result.map(decodeRange(json, path), (range) => ({ _tag: "InRange", range }))
  return invalid(path, `expected a range such as {"Geq": V}, "Never", or null (always), got ${describeJson(json)}`)
}

/** One entry of the frame: one canonical target per selector, all with the entry's range. */
const decodeWatchEntry = (json: unknown, path: InputPath): Decoded<ReadonlyArray<WatchTarget>> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, `a watch target {"select", "range"}`, ["select", "range"])
    const selectors = yield* decodeGetterSelectors(yield* requiredField(object, "select", path), [...path, "select"])
    const values = yield* decodeValueFilter(field(object, "range"), [...path, "range"])
    return selectors.map((selector) => ({ selector, values, topology: true }))
  })

export const decodeWatchFrame = (json: unknown, path: InputPath = []): Decoded<WatchRegistration> => {
  if (isJsonObject(json)) return decodeWatchEntry(json, path)
  if (!Array.isArray(json)) {
    return invalid(path, `expected [{"select": …, "range": …}] or one such object, got ${describeJson(json)}`)
  }
  return Result.map(readEach(json, path, decodeWatchEntry), (entries) => entries.flat())
}

const encodeValueFilter = (values: ValueFilter): Record<string, unknown> => {
  switch (values._tag) {
    case "Always":
      return {}
    case "Never":
      return { range: "Never" }
    case "InRange":
      return { range: encodeRange(values.range) }
  }
}

/**
 * One entry per target. Refused when a target does not watch topology (B always does); a target whose
 * selector matches nothing (a Conflict, or setters only) watches nothing and is left out.
 */
export const encodeWatchFrame = (registration: WatchRegistration): Result.Result<unknown, Unexpressible> => {
  if (registration.some((target) => !target.topology)) {
    return Result.fail(new Unexpressible({ reason: "vocabulary B always watches topology: it cannot switch it off" }))
  }
  const entries: Array<unknown> = []
  for (const target of registration) {
    const selector = encodeGetterSelector(target.selector)
    if (Result.isSuccess(selector)) entries.push({ select: [selector.success], ...encodeValueFilter(target.values) })
  }
  return Result.succeed(entries)
}
