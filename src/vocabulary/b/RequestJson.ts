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
const decodeSendPair = (pair: ReadonlyArray<unknown>, path: InputPath): Decoded<SendTarget> =>
  Result.gen(function*() {
    const [selectorsJson, valueJson] = pair
    const selectors = yield* decodeSetterSelectors(selectorsJson, [...path, 0])
    const value = yield* decodeValue(valueJson, [...path, 1])
    return { selectors, value }
  })

/** One element of a list: a target object or, as FoxBox clients send it, a pair `[sel(s), V]`. */
const decodeSendElement = (json: unknown, path: InputPath): Decoded<SendTarget> =>
  Array.isArray(json)
    ? json.length === 2
      ? decodeSendPair(json, path)
      : invalid(path, `expected a pair [selectors, value], got an array of ${json.length} items`)
    : isJsonObject(json)
    ? decodeSendTarget(json, path)
    : invalid(path, `expected a send target {"select": …, "value": …} or a pair [selectors, value], got ${describeJson(json)}`)

/** What can only be a value: `null` (Unit) or an object of one key; never a target, a pair or a list. */
const looksLikeValue = (json: unknown): boolean =>
  json === null || (isJsonObject(json) && !isSendTarget(json) && Object.keys(json).length === 1)

/**
 * The bare top-level pair `[sel(s), V]`: two items, the second a value. A list of two targets or pairs
 * (`[[sel, V], [sel, V]]`, or a target with a misspelt field) never reads as a pair.
 */
const isBarePair = (json: ReadonlyArray<unknown>): boolean =>
  json.length === 2 && !isSendTarget(json[0]) && looksLikeValue(json[1])

/**
 * A send body in any of its forms (wire.md §6): one target `{"select": sel(s), "value": V}`, a list
 * whose elements are targets or pairs `[sel(s), V]`, mixed freely, or one bare pair `[sel(s), V]`.
 */
export const decodeSendBody = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<SendTarget>> => {
  if (isJsonObject(json)) return Result.map(decodeSendTarget(json, path), (target) => [target])
  if (!Array.isArray(json)) {
    return invalid(path, `expected {"select": …, "value": …}, an array of them, or [selectors, value], got ${describeJson(json)}`)
  }
  if (isBarePair(json)) return Result.map(decodeSendPair(json, path), (target) => [target])
  return readEach(json, path, decodeSendElement)
}

/** Always the array form; each target's selectors as an array. */
export const encodeSendBody = (targets: ReadonlyArray<SendTarget>): unknown =>
  targets.map((target) => ({ select: encodeSetterSelectors(target.selectors), value: encodeValue(target.value) }))

// ---- fetch bodies ---------------------------------------------------------------------------------

/** The body of fetch_values: GetterSelector(s). */
export const decodeFetchBody = decodeGetterSelectors
export const encodeFetchBody = encodeGetterSelectors
