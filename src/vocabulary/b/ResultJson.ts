import { Result } from "effect"
import type { ChannelError } from "../../domain/ChannelError.ts"
import type { FetchOutcome, FetchResults, ResultKey, SendOutcome, SendResults } from "../../domain/Outcome.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  describeJson,
  invalid,
  isJsonObject,
  readChannelId,
  readObject,
  readServiceId
} from "../common/JsonInput.ts"
import { byKey } from "../../domain/ListOrder.ts"
import { decodeValueOrNull, encodeValueOrNull } from "../common/ValueJson.ts"
import { decodeChannelError, encodeChannelError } from "./ErrorJson.ts"

/**
 * Result maps of vocabulary B (wire.md §6): an object keyed by channel id (or by the unknown service id
 * a selector named). fetch: the value, `null` for no value yet, or `{"Error": E}`; send: `null` on
 * success or `{"Error": E}`.
 *
 * Keys are written in sorted order. (JavaScript lists integer-like keys such as `"7"` first whatever
 * the insertion order; the decoder sorts again, so a round trip is exact.)
 */

const encodeError = (error: ChannelError): unknown => ({ Error: encodeChannelError(error) })

/** Built with `fromEntries` so that any id, `__proto__` included, stays an own key. */
const encodeMap = <O extends { readonly key: string }>(outcomes: ReadonlyArray<O>, encode: (o: O) => unknown) =>
  Object.fromEntries([...outcomes].sort(byKey).map((o) => [o.key, encode(o)]))

export const encodeFetchResults = (results: FetchResults): unknown =>
  encodeMap(results, (o) =>
    Result.match(o.result, {
      onSuccess: encodeValueOrNull,
      onFailure: encodeError
    }))

export const encodeSendResults = (results: SendResults): unknown =>
  encodeMap(results, (o) => Result.match(o.result, { onSuccess: () => null, onFailure: encodeError }))

// ---- decoding -------------------------------------------------------------------------------------

/** `{"Error": E}` is never a value: no value type is called `Error`. */
const isErrorEntry = (json: unknown): json is { readonly Error: unknown } =>
  isJsonObject(json) && Object.keys(json).length === 1 && Object.hasOwn(json, "Error")

/** A key names the unknown service of a NoSuchService, and a channel otherwise. */
const readKey = (key: string, result: Result.Result<unknown, ChannelError>, path: InputPath): Decoded<ResultKey> =>
  Result.isFailure(result) && result.failure._tag === "NoSuchService"
    ? readServiceId(key, path)
    : readChannelId(key, path)

const decodeMap = <S>(
  json: unknown,
  path: InputPath,
  what: string,
  decodeSuccess: (entry: unknown, path: InputPath) => Decoded<S>
): Decoded<ReadonlyArray<{ readonly key: ResultKey; readonly result: Result.Result<S, ChannelError> }>> =>
  Result.gen(function*() {
    const object = yield* readObject(json, path, what)
    const outcomes: Array<{ readonly key: ResultKey; readonly result: Result.Result<S, ChannelError> }> = []
    for (const name of Object.keys(object).sort()) {
      const at = [...path, name]
      const entry = object[name]
      const result: Result.Result<S, ChannelError> = isErrorEntry(entry)
        ? Result.fail(yield* decodeChannelError(entry.Error, [...at, "Error"]))
        : Result.succeed(yield* decodeSuccess(entry, at))
      outcomes.push({ key: yield* readKey(name, result, at), result })
    }
    return outcomes
  })

const decodeSent = (json: unknown, path: InputPath): Decoded<void> =>
  json === null ? Result.void : invalid(path, `expected null (sent) or {"Error": E}, got ${describeJson(json)}`)

export const decodeFetchResults = (json: unknown, path: InputPath = []): Decoded<FetchResults> =>
  Result.map(
    decodeMap(json, path, "a result map keyed by channel id", decodeValueOrNull),
    (outcomes): ReadonlyArray<FetchOutcome> => outcomes
  )

export const decodeSendResults = (json: unknown, path: InputPath = []): Decoded<SendResults> =>
  Result.map(
    decodeMap(json, path, "a result map keyed by channel id", decodeSent),
    (outcomes): ReadonlyArray<SendOutcome> => outcomes
  )
