import { type Option, Result, Schema, SchemaTransformation } from "effect"
import type { FetchResults, SendResults } from "../../domain/Outcome.ts"
import { ResultKey } from "../../domain/Outcome.ts"
import { byKey } from "../../domain/ListOrder.ts"
import { Value } from "../../domain/Value.ts"
import { ValueOrNullJson } from "../common/ValueJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { explainedBy, keyedUnion } from "../common/WireSchema.ts"
import { ChannelErrorInA, ChannelErrorJson } from "./ChannelErrorJson.ts"

/**
 * Results of get_channel_value and put_channel_value (wire.md §6): an array of `[id, R]` pairs sorted by
 * id, R being `{"Ok": V}`, `{"Ok": null}` (no value yet, or a successful write) or `{"Err": E}`.
 * Decoded results carry A's errors (see ChannelErrorInA); domain results are accepted as they are.
 */
const outcomeInA = <T, E>(success: Schema.Codec<T, E>) =>
  Schema.Struct({ key: ResultKey, result: Schema.Result(success, ChannelErrorInA) })

const FetchOutcomeInA = outcomeInA(Schema.Option(Value))
const SendOutcomeInA = outcomeInA(Schema.Void)
export type OutcomeInA<A> = { readonly key: ResultKey; readonly result: Result.Result<A, ChannelErrorInA> }
export type FetchResultsInA = ReadonlyArray<OutcomeInA<Option.Option<Value>>>
export type SendResultsInA = ReadonlyArray<OutcomeInA<void>>

/** What is left of domain results once written in A: TypeMismatch forgets its types. */
export const resultsInA = <A>(results: ReadonlyArray<OutcomeInA<A>>): ReadonlyArray<OutcomeInA<A>> =>
  results.map(({ key, result }) => ({
    key,
    result: Result.mapError(result, (error) => (error._tag === "TypeMismatch" ? { _tag: "TypeMismatch" } as const : error))
  }))

const ResultKeyJson = ResultKey.annotate({ expected: "a channel or node id (a string)" })

/** `{"Ok": …}` or `{"Err": E}`, as the Result of one channel. */
const outcome = <T, E>(ok: Schema.Codec<T, E>) => {
  const okJson: Schema.Codec<{ readonly Ok: T }, { readonly Ok: E }> = Schema.Struct({ Ok: ok })
  return keyedUnion(
    { Ok: okJson, Err: Schema.Struct({ Err: ChannelErrorJson }) },
    `{"Ok": …} or {"Err": …}`,
    (tag) => `unknown result ${JSON.stringify(tag)}, expected "Ok" or "Err"`
  ).pipe(Schema.decodeTo(
    Schema.toType(Schema.Result(Schema.toType(ok), ChannelErrorInA)),
    SchemaTransformation.transform({
      decode: (json): Result.Result<T, ChannelErrorInA> => ("Ok" in json ? Result.succeed(json.Ok) : Result.fail(json.Err)),
      encode: Result.match({ onSuccess: (value) => ({ Ok: value }), onFailure: (error) => ({ Err: error }) })
    })
  ))
}

/** `[id, R]` pairs, written in id order. */
const outcomes = <T, E>(ok: Schema.Codec<T, E>, target: Schema.Codec<OutcomeInA<T>, unknown>, identifier: string, description: string) => {
  const Pair = Schema.Tuple([ResultKeyJson, outcome(ok)])
  const PairJson = Pair.annotate(
    explainedBy((input) => (Array.isArray(input) && input.length === 2 ? Pair : "expected an [id, result] pair"))
  ).pipe(Schema.decodeTo(
    Schema.toType(target),
    SchemaTransformation.transform({
      decode: ([key, result]): OutcomeInA<T> => ({ key, result }),
      encode: ({ key, result }) => [key, result] as const
    })
  ))
  return Schema.Array(PairJson).annotate({ expected: "an array of [id, result] pairs", identifier, description }).pipe(Schema.decode(
    SchemaTransformation.transform({ decode: (results) => results, encode: (results) => [...results].sort(byKey) })
  ))
}

/** A write's success is `{"Ok": null}`. */
const Written = Schema.Null.pipe(Schema.decodeTo(
  Schema.Void,
  SchemaTransformation.transform<void, null>({ decode: () => undefined, encode: () => null })
)).annotate(explainedBy(() => "a write's success is {\"Ok\": null}"))

export const FetchResultsJson = outcomes(ValueOrNullJson, FetchOutcomeInA, "AFetchResults", "One `[id, result]` pair per matched input, sorted by id.")
export const SendResultsJson = outcomes(Written, SendOutcomeInA, "ASendResults", "One `[id, result]` pair per matched output, sorted by id.")

export const decodeFetchResults = decodeWith(FetchResultsJson)
export const decodeSendResults = decodeWith(SendResultsJson)
export const encodeFetchResults: (results: FetchResults | FetchResultsInA) => unknown = encodeTotal(FetchResultsJson)
export const encodeSendResults: (results: SendResults | SendResultsInA) => unknown = encodeTotal(SendResultsJson)
