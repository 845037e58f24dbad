import { Result } from "effect"
import type { SendTarget } from "../../domain/Request.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import { type Decoded, describeJson, invalid, isJsonObject, readObjectWithKeys, requiredField } from "../common/JsonInput.ts"
import { decodeValue, encodeValue } from "../common/ValueJson.ts"
import { decodeSetSelectors, encodeSetSelectors } from "./ChannelSelectorJson.ts"
import { Unexpressible } from "../common/Unexpressible.ts"

/**
 * The body of put_channel_value (wire.md §6), in either form: the pair `[[SetSelector], V]`, or
 * `{"set": [SetSelector], "value": V}`. Either is one write target: one value for every setter matched.
 */
const forms = `the pair [[SetSelector], Value] or {"set": [SetSelector], "value": Value}`

const target = (
  selectorsJson: unknown,
  selectorsPath: InputPath,
  valueJson: unknown,
  valuePath: InputPath
): Decoded<ReadonlyArray<SendTarget>> =>
  Result.gen(function*() {
    const selectors = yield* decodeSetSelectors(selectorsJson, selectorsPath)
    const value = yield* decodeValue(valueJson, valuePath)
    return [{ selectors, value }]
  })

export const decodePutValueBody = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<SendTarget>> => {
  if (Array.isArray(json)) {
    if (json.length !== 2) return invalid(path, `expected ${forms}, got an array of ${json.length} items`)
    const [selectors, value]: ReadonlyArray<unknown> = json
    return target(selectors, [...path, 0], value, [...path, 1])
  }
  if (isJsonObject(json)) {
    return Result.gen(function*() {
      const object = yield* readObjectWithKeys(json, path, `{"set", "value"}`, ["set", "value"])
      const selectors = yield* requiredField(object, "set", path)
      const value = yield* requiredField(object, "value", path)
      return yield* target(selectors, [...path, "set"], value, [...path, "value"])
    })
  }
  return invalid(path, `expected ${forms}, got ${describeJson(json)}`)
}

/** Written in the object form. A request of A carries one value: several targets cannot be written. */
export const encodePutValueBody = (targets: ReadonlyArray<SendTarget>): Result.Result<unknown, Unexpressible> => {
  const [only, ...others] = targets
  if (only === undefined || others.length > 0) {
    return Result.fail(
      new Unexpressible({ reason: `a vocabulary A put_channel_value body holds one value, not ${targets.length}` })
    )
  }
  return Result.map(encodeSetSelectors(only.selectors), (set) => ({ set, value: encodeValue(only.value) }))
}
