import type * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { ResultKey } from "../../domain/Outcome.ts"
import { byKey, inOrder } from "../../domain/ListOrder.ts"
import { Value } from "../../domain/Value.ts"
import { DOCS } from "../common/Docs.ts"
import { ValueOrNullJson } from "../common/ValueJson.ts"
import { explainedBy, keyedForm, keyedUnion } from "../common/WireSchema.ts"
import { type WirePart, wireShape } from "../common/WireShape.ts"
import { ChannelErrorInA, ChannelErrorJson } from "./ChannelErrorJson.ts"

/**
 * Results of get_channel_value and put_channel_value (docs/reference.md §6.4): an array of `[id, R]` pairs sorted by
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
const outcome = <T, W>(ok: WirePart<T, W>) =>
  keyedUnion<Result.Result<T, ChannelErrorInA>>(
    {
      Success: keyedForm("Ok", ok, (value) => Result.succeed(value) as Result.Success<T, ChannelErrorInA>, (r) => r.success),
      Failure: keyedForm("Err", ChannelErrorJson, (error) => Result.fail(error) as Result.Failure<T, ChannelErrorInA>, (r) => r.failure)
    },
    `{"Ok": …} or {"Err": …}`,
    (tag) => `unknown result ${JSON.stringify(tag)}, expected "Ok" or "Err"`
  )

/** `[id, R]` pairs, written in id order. */
const outcomes = <T, W>(ok: WirePart<T, W>, target: Schema.Codec<OutcomeInA<T>, unknown>, identifier: string, description: string) => {
  const result = outcome(ok)
  const Pair = Schema.Tuple([ResultKeyJson, result.wire])
  const PairJson = Pair.annotate(
    explainedBy((input) => (Array.isArray(input) && input.length === 2 ? Pair : "expected an [id, result] pair"))
  )
  return wireShape({
    wire: Schema.Array(PairJson).annotate({ expected: "an array of [id, result] pairs", identifier, description }),
    read: (json) => json.map(([key, r]): OutcomeInA<T> => ({ key, result: result.read(r) })),
    write: (results: ReadonlyArray<OutcomeInA<T>>) => inOrder(results, byKey).map(({ key, result: r }) => [key, result.write(r)] as const)
  }, Schema.Array(target))
}

/** A write's success is `{"Ok": null}`. */
const Written: WirePart<void, null> = {
  wire: Schema.Null.annotate(explainedBy(() => "a write's success is {\"Ok\": null}")),
  read: () => undefined,
  write: () => null
}

export const FetchResultsJson = outcomes(ValueOrNullJson, FetchOutcomeInA, "AFetchResults", DOCS ? "One `[id, result]` pair per matched input, sorted by id." : "")
export const SendResultsJson = outcomes(Written, SendOutcomeInA, "ASendResults", DOCS ? "One `[id, result]` pair per matched output, sorted by id." : "")
