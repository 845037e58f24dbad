import { Option, Result } from "effect"
import type { FetchResults, ResultKey, SendResults } from "../../domain/Outcome.ts"
import { ResultKey as ResultKeySchema } from "../../domain/Outcome.ts"
import type { Value } from "../../domain/Value.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import { type Decoded, identifierReader, invalid, readArrayOf, readSingleKey } from "../common/JsonInput.ts"
import { byKey } from "../../domain/ListOrder.ts"
import { decodeValueOrNull, encodeValueOrNull } from "../common/ValueJson.ts"
import { type ChannelErrorInA, channelErrorInA, decodeChannelError, encodeChannelError } from "./ChannelErrorJson.ts"

/**
 * Results of get_channel_value and put_channel_value (wire.md §6): an array of `[id, R]` pairs sorted by
 * id, R being `{"Ok": V}`, `{"Ok": null}` (no value yet, or a successful write) or `{"Err": E}`.
 * Decoded results carry A's errors (see ChannelErrorInA); domain results are accepted as they are.
 */
export interface OutcomeInA<A> {
  readonly key: ResultKey
  readonly result: Result.Result<A, ChannelErrorInA>
}
export type FetchResultsInA = ReadonlyArray<OutcomeInA<Option.Option<Value>>>
export type SendResultsInA = ReadonlyArray<OutcomeInA<void>>

/** What is left of domain results once written in A: TypeMismatch forgets its types. */
export const resultsInA = <A>(results: ReadonlyArray<OutcomeInA<A>>): ReadonlyArray<OutcomeInA<A>> =>
  results.map(({ key, result }) => ({
    key,
    result: Result.mapError(result, channelErrorInA)
  }))

const readKey = identifierReader(ResultKeySchema, "a channel or node id (a string)")

const decodeOutcomes = <A>(
  json: unknown,
  path: InputPath,
  decodeOk: (json: unknown, path: InputPath) => Decoded<A>
): Decoded<ReadonlyArray<OutcomeInA<A>>> =>
  readArrayOf(json, path, "an array of [id, result] pairs", (pair, at): Decoded<OutcomeInA<A>> => {
    if (!Array.isArray(pair) || pair.length !== 2) return invalid(at, "expected an [id, result] pair")
    const [keyJson, resultJson]: ReadonlyArray<unknown> = pair
    return Result.gen(function*() {
      const key = yield* readKey(keyJson, [...at, 0])
      const [tag, payload] = yield* readSingleKey(resultJson, [...at, 1], `{"Ok": …} or {"Err": …}`)
      const result: Result.Result<A, ChannelErrorInA> = tag === "Ok"
        ? Result.succeed(yield* decodeOk(payload, [...at, 1, "Ok"]))
        : tag === "Err"
        ? Result.fail(yield* decodeChannelError(payload, [...at, 1, "Err"]))
        : yield* invalid([...at, 1], `unknown result ${JSON.stringify(tag)}, expected "Ok" or "Err"`)
      return { key, result }
    })
  })

const decodeWritten = (json: unknown, path: InputPath): Decoded<void> =>
  json === null ? Result.void : invalid(path, "a write's success is {\"Ok\": null}")

export const decodeFetchResults = (json: unknown, path: InputPath = []): Decoded<FetchResultsInA> =>
  decodeOutcomes(json, path, decodeValueOrNull)

export const decodeSendResults = (json: unknown, path: InputPath = []): Decoded<SendResultsInA> =>
  decodeOutcomes(json, path, decodeWritten)

/** Sorted by id whatever the order given, so that responses are deterministic. */
const encodeOutcomes = <A>(results: ReadonlyArray<OutcomeInA<A>>, encodeOk: (a: A) => unknown): unknown =>
  [...results].sort(byKey).map(({ key, result }) => [
    key,
    Result.match(result, {
      onSuccess: (ok) => ({ Ok: encodeOk(ok) }),
      onFailure: (error) => ({ Err: encodeChannelError(error) })
    })
  ])

export const encodeFetchResults = (results: FetchResults | FetchResultsInA): unknown =>
  encodeOutcomes<Option.Option<Value>>(results, encodeValueOrNull)

export const encodeSendResults = (results: SendResults | SendResultsInA): unknown =>
  encodeOutcomes<void>(results, () => null)
