import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { ChannelError } from "../../domain/ChannelError.ts"
import { byKey, inOrder } from "../../domain/ListOrder.ts"
import { FetchOutcome, type ResultKey, SendOutcome } from "../../domain/Outcome.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { DOCS } from "../common/Docs.ts"
import { ChannelIdJson } from "../common/IdentifierJson.ts"
import { ValueOrNullJson } from "../common/ValueJson.ts"
import { type WirePart, wireShape } from "../common/WireShape.ts"
import { type Explanation, expectedGot, explainedBy, wireCheck } from "../common/WireSchema.ts"
import { ChannelErrorJson } from "./ErrorJson.ts"

/**
 * Result maps of vocabulary B (docs/reference.md §6.4): an object keyed by channel id (or by the unknown service id
 * a selector named). fetch: the value, `null` for no value yet, or `{"Error": E}`; send: `null` on
 * success or `{"Error": E}`.
 *
 * Keys are written in sorted order. (JavaScript lists integer-like keys such as `"7"` first whatever
 * the insertion order; the decoder sorts again, so a round trip is exact.)
 */
/** `{"Error": E}` is never a value: no value type is called `Error`. */
const isErrorEntry = (json: unknown): json is { readonly Error: unknown } =>
  isJsonObject(json) && Object.keys(json).length === 1 && Object.hasOwn(json, "Error")

/** One channel's entry, `{"Error": E}` or what `success` reads, as the channel's Result. */
const entry = <T, W>(success: WirePart<T, W>, explainSuccess: (input: unknown) => Explanation): WirePart<Result.Result<T, ChannelError>, unknown> => {
  const Failed = Schema.Struct({ Error: ChannelErrorJson.wire })
  return {
    wire: Schema.Union([Failed, success.wire]).annotate(explainedBy((input) => (isErrorEntry(input) ? Failed : explainSuccess(input)))),
    read: (json) => (isErrorEntry(json) ? Result.fail(ChannelErrorJson.read(json.Error)) : Result.succeed(success.read(json as W))),
    write: (result) =>
      Result.isFailure(result) ? { Error: ChannelErrorJson.write(result.failure) } : success.write(result.success)
  }
}

/** Keys follow the rule of every id (docs/reference.md §1), whether they name a channel or a service. */
const isKey = Schema.is(ChannelIdJson)
const keyIssue = Schema.decodeUnknownResult(ChannelIdJson)

/** The first key (in order) that is not an id, at its place. */
const badKey = (map: { readonly [key: string]: unknown }): Schema.FilterOutput => {
  for (const name of Object.keys(map).sort()) {
    if (isKey(name)) continue
    const refused = keyIssue(name)
    return Result.isFailure(refused) ? { path: [name], issue: refused.failure.issue } : undefined
  }
  return undefined
}

type Outcome<T> = { readonly key: ResultKey; readonly result: Result.Result<T, ChannelError> }

const resultMap = <T, W>(
  success: WirePart<T, W>,
  explainSuccess: (input: unknown) => Explanation,
  outcome: Schema.Codec<Outcome<T>, unknown>,
  identifier: string
) => {
  const one = entry(success, explainSuccess)
  return wireShape({
    wire: Schema.Record(Schema.String, one.wire).check(wireCheck(badKey)).annotate({
      expected: "a result map keyed by channel id",
      identifier,
      description: DOCS ? "Keyed by channel id (or by the unknown service id of a NoSuchService), sorted." : ""
    }),
    // Keys in order; each was checked to be an id.
    read: (map): ReadonlyArray<Outcome<T>> =>
      Object.keys(map).sort().map((name) => ({ key: name as ResultKey, result: one.read(map[name]) })),
    // Built with `fromEntries` so that any id, `__proto__` included, stays an own key.
    write: (outcomes) => Object.fromEntries(inOrder(outcomes, byKey).map((o) => [o.key, one.write(o.result)]))
  }, Schema.Array(outcome))
}

/** A write's success is `null`. */
const Sent: WirePart<void, null> = { wire: Schema.Null, read: () => undefined, write: () => null }

export const FetchResultsJson = resultMap(ValueOrNullJson, () => ValueOrNullJson.wire, FetchOutcome, "BFetchResults")
export const SendResultsJson = resultMap(Sent, (input) => expectedGot(`null (sent) or {"Error": E}`, input), SendOutcome, "BSendResults")
