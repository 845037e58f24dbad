import { Effect, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { ChannelError } from "../../domain/ChannelError.ts"
import { byKey } from "../../domain/ListOrder.ts"
import { FetchOutcome, type ResultKey, SendOutcome } from "../../domain/Outcome.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { ChannelIdJson } from "../common/IdentifierJson.ts"
import { ValueOrNullJson } from "../common/ValueJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { type Explanation, expectedGot, explainedBy } from "../common/WireSchema.ts"
import { ChannelErrorJson } from "./ErrorJson.ts"

/**
 * Result maps of vocabulary B (wire.md §6): an object keyed by channel id (or by the unknown service id
 * a selector named). fetch: the value, `null` for no value yet, or `{"Error": E}`; send: `null` on
 * success or `{"Error": E}`.
 *
 * Keys are written in sorted order. (JavaScript lists integer-like keys such as `"7"` first whatever
 * the insertion order; the decoder sorts again, so a round trip is exact.)
 */
const transform = SchemaTransformation.transform

/** `{"Error": E}` is never a value: no value type is called `Error`. */
const isErrorEntry = (json: unknown): boolean =>
  isJsonObject(json) && Object.keys(json).length === 1 && Object.hasOwn(json, "Error")

/** One channel's entry, `{"Error": E}` or what `success` reads, as the channel's Result. */
const entry = <T, E>(success: Schema.Codec<T, E>, explainSuccess: (input: unknown) => Explanation) => {
  type R = Result.Result<T, ChannelError>
  const result = Schema.toType(Schema.Result(Schema.toType(success), ChannelError))
  // Each form takes only its own results, so that a union writes each with its form.
  const Failed = Schema.Struct({ Error: ChannelErrorJson }).pipe(Schema.decodeTo(
    result.pipe(Schema.refine((r): r is Result.Failure<T, ChannelError> => Result.isFailure(r))),
    transform({ decode: (json): R => Result.fail(json.Error), encode: (r: R) => ({ Error: Result.getOrThrow(Result.flip(r)) }) })
  ))
  const Succeeded = success.pipe(Schema.decodeTo(
    result.pipe(Schema.refine((r): r is Result.Success<T, ChannelError> => Result.isSuccess(r))),
    transform({ decode: (value: T): R => Result.succeed(value), encode: (r: R) => Result.getOrThrow(r) })
  ))
  return Schema.Union([Failed, Succeeded]).annotate(explainedBy((input) => (isErrorEntry(input) ? Failed : explainSuccess(input))))
}

/** Keys follow the rule of every id (wire.md §1), whether they name a channel or a service. */
const decodeKey = Schema.decodeUnknownEffect(ChannelIdJson)

type Outcome<T> = { readonly key: ResultKey; readonly result: Result.Result<T, ChannelError> }

const resultMap = <T, E>(
  success: Schema.Codec<T, E>,
  explainSuccess: (input: unknown) => Explanation,
  outcome: Schema.Codec<Outcome<T>, unknown>,
  identifier: string
) =>
  Schema.Record(Schema.String, entry(success, explainSuccess)).annotate({
    expected: "a result map keyed by channel id",
    identifier,
    description: "Keyed by channel id (or by the unknown service id of a NoSuchService), sorted."
  }).pipe(
    Schema.decodeTo(
      Schema.toType(Schema.Array(outcome)),
      SchemaTransformation.transformEffect({
        // Keys in order, each read as an id: a bad one is refused at its place.
        decode: (map): Effect.Effect<ReadonlyArray<Outcome<T>>, SchemaIssue.Issue> =>
          Effect.forEach(Object.keys(map).sort(), (name) =>
            Effect.map(
              Effect.mapError(decodeKey(name), (error) => new SchemaIssue.Pointer([name], error.issue)),
              (key) => ({ key, result: map[name] })
            )).pipe(Effect.map((read) => read.flatMap(({ key, result }) => (result === undefined ? [] : [{ key, result }])))),
        // Built with `fromEntries` so that any id, `__proto__` included, stays an own key.
        encode: (outcomes) => Effect.succeed(Object.fromEntries([...outcomes].sort(byKey).map((o) => [o.key, o.result])))
      })
    )
  )

/** A write's success is `null`. */
const Sent = Schema.Null.pipe(Schema.decodeTo(Schema.Void, transform<void, null>({ decode: () => undefined, encode: () => null })))

export const FetchResultsJson = resultMap(ValueOrNullJson, () => ValueOrNullJson, FetchOutcome, "BFetchResults")
export const SendResultsJson = resultMap(Sent, (input) => expectedGot(`null (sent) or {"Error": E}`, input), SendOutcome, "BSendResults")

export const decodeFetchResults = decodeWith(FetchResultsJson)
export const decodeSendResults = decodeWith(SendResultsJson)
export const encodeFetchResults = encodeTotal(FetchResultsJson)
export const encodeSendResults = encodeTotal(SendResultsJson)
