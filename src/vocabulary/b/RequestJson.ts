import { Result } from "effect"
import type { Tag } from "../../domain/Identifier.ts"
import type { SendTarget, TagRequest } from "../../domain/Request.ts"
import type { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  describeJson,
  field,
  invalid,
  isJsonObject,
  readEach,
  readObjectWithKeys,
  readTags,
  requiredField
} from "../common/JsonInput.ts"
import type { Unexpressible } from "../common/Unexpressible.ts"
import { decodeValue, encodeValue } from "../common/ValueJson.ts"
import {
  decodeEitherChannelSelectors,
  decodeGetterSelectors,
  decodeServiceSelectors,
  decodeSetterSelectors,
  encodeEitherChannelSelectors,
  encodeGetterSelectors,
  encodeServiceSelectors,
  encodeSetterSelectors
} from "./SelectorJson.ts"

/**
 * Request bodies of vocabulary B (wire.md §6): tag bodies and send bodies. (Read bodies are selectors:
 * see SelectorJson.) A body is read whole: one bad selector or value anywhere refuses all of it.
 */

// ---- tag bodies -----------------------------------------------------------------------------------

const tagBody = <S>(
  selectorsKey: string,
  decodeSelectors: (json: unknown, path: InputPath) => Decoded<ReadonlyArray<S>>
) =>
(json: unknown, path: InputPath = []): Decoded<TagRequest<S>> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a tag body", [selectorsKey, "tags"])
    const selectors = yield* decodeSelectors(
      yield* requiredField(object, selectorsKey, path),
      [...path, selectorsKey]
    )
    const tags = yield* readTags(yield* requiredField(object, "tags", path), [...path, "tags"])
    return { selectors, tags }
  })

/** `{"services": sel(s), "tags": [..]}` of `/services/tag`. */
export const decodeServiceTagBody = tagBody("services", decodeServiceSelectors)
/** `{"set": sel(s), "tags": [..]}` of `/channels/tag`: selectors match channels of either mechanism. */
export const decodeChannelTagBody = tagBody("set", decodeEitherChannelSelectors)
/** `{"getters": sel(s), "tags": [..]}` of the alias `/channels/getter/tags`: getters only. */
export const decodeGetterTagBody = tagBody("getters", decodeGetterSelectors)
/** `{"setters": sel(s), "tags": [..]}` of the alias `/channels/setter/tags`: setters only. */
export const decodeSetterTagBody = tagBody("setters", decodeSetterSelectors)

const writeTagBody = (key: string, selectors: unknown, tags: ReadonlyArray<Tag>): unknown => ({ [key]: selectors, tags })

export const encodeServiceTagBody = (request: TagRequest<ServiceSelector>): unknown =>
  writeTagBody("services", encodeServiceSelectors(request.selectors), request.tags)

/** Refused when a selector pins a mechanism: write it with the getter or setter alias body instead. */
export const encodeChannelTagBody = (request: TagRequest<ChannelSelector>): Result.Result<unknown, Unexpressible> =>
  Result.map(encodeEitherChannelSelectors(request.selectors), (selectors) => writeTagBody("set", selectors, request.tags))

export const encodeGetterTagBody = (request: TagRequest<ChannelSelector>): unknown =>
  writeTagBody("getters", encodeGetterSelectors(request.selectors), request.tags)

export const encodeSetterTagBody = (request: TagRequest<ChannelSelector>): unknown =>
  writeTagBody("setters", encodeSetterSelectors(request.selectors), request.tags)

// ---- send bodies ----------------------------------------------------------------------------------

/** `{"select": sel(s), "value": V}`. */
const decodeSendTarget = (json: unknown, path: InputPath): Decoded<SendTarget> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, `a send target {"select", "value"}`, ["select", "value"])
    const selectors = yield* decodeSetterSelectors(yield* requiredField(object, "select", path), [...path, "select"])
    const value = yield* decodeValue(yield* requiredField(object, "value", path), [...path, "value"])
    return { selectors, value }
  })

const isSendTarget = (json: unknown): boolean => isJsonObject(json) && field(json, "select") !== undefined

/** The pair `[sel(s), V]`. */
const decodeSendPair = (pair: ReadonlyArray<unknown>, path: InputPath): Decoded<ReadonlyArray<SendTarget>> =>
  Result.gen(function*() {
    const [selectorsJson, valueJson] = pair
    const selectors = yield* decodeSetterSelectors(selectorsJson, [...path, 0])
    const value = yield* decodeValue(valueJson, [...path, 1])
    return [{ selectors, value }]
  })

/**
 * A send body in any of its three forms: one target `{"select": sel(s), "value": V}`, an array of
 * targets, or the pair `[sel(s), V]`. An array is read as targets as soon as one item has `select`
 * (so a mistake in a list of targets is reported as such); otherwise a two-item array is the pair.
 */
export const decodeSendBody = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<SendTarget>> => {
  if (isJsonObject(json)) return Result.map(decodeSendTarget(json, path), (target) => [target])
  if (!Array.isArray(json)) {
    return invalid(path, `expected {"select": …, "value": …}, an array of them, or [selectors, value], got ${describeJson(json)}`)
  }
  if (json.length === 2 && !json.some(isSendTarget)) return decodeSendPair(json, path)
  return readEach(json, path, decodeSendTarget)
}

/** Always the array form; each target's selectors as an array. */
export const encodeSendBody = (targets: ReadonlyArray<SendTarget>): unknown =>
  targets.map((target) => ({ select: encodeSetterSelectors(target.selectors), value: encodeValue(target.value) }))

// ---- fetch bodies ---------------------------------------------------------------------------------

/** The body of fetch_values: GetterSelector(s). */
export const decodeFetchBody = decodeGetterSelectors
export const encodeFetchBody = encodeGetterSelectors
