import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { ChannelError } from "../domain/ChannelError.ts"
import type { ResultKey } from "../domain/Outcome.ts"
import * as A from "./a/index.ts"
import * as B from "./b/index.ts"
import type { Decoded, InvalidInput } from "./common/InvalidInput.ts"
import { TagCountJson } from "./common/TagCountJson.ts"
import { Unexpressible } from "./common/Unexpressible.ts"
import { decode } from "./common/WireIssue.ts"
import { plain, type Wire } from "./common/WireShape.ts"

/**
 * Vocabulary A answers said in vocabulary B: each read with A's codec into the canonical model, and that
 * written with B's. B says more than A in places; what A's answer does not hold is not made up.
 */

/** An A answer in B's words: the answer, and the entries of it that A's answer says too little of, with why. */
export interface AnswerB {
  readonly answer: unknown
  /** By result key: what B would answer there that A's answer does not say (absent: nothing). */
  readonly untold?: Readonly<Record<string, string>>
}

export type AnswerTranslation = (json: unknown) => Result.Result<AnswerB, InvalidInput | Unexpressible>

/** Why a TypeError has no B entry: B names the types, A does not. */
export const typeErrorUntold =
  `a TypeError: B answers {"Error": {"TypeError": {"expected": T, "got": T}}}, T the setter's value type and the value's, which A's TypeError does not say`

type OutcomeInB<T> = { readonly key: ResultKey; readonly result: Result.Result<T, ChannelError> }

/** The outcome as B holds it, unless A's error lacks what B's says (a TypeError's types). */
const inB = <T>({ key, result }: A.OutcomeInA<T>): Option.Option<OutcomeInB<T>> => {
  if (Result.isSuccess(result)) return Option.some({ key, result: Result.succeed(result.success) })
  const error = result.failure
  return error._tag === "TypeMismatch" ? Option.none() : Option.some({ key, result: Result.fail(error) })
}

/** Results (`[id, R]` pairs) as B's map keyed by id; a TypeError is untold. */
export const resultsAnswer = <T, W>(
  a: { readonly wire: Wire<W>; readonly read: (json: W) => ReadonlyArray<A.OutcomeInA<T>> },
  b: { readonly write: (outcomes: ReadonlyArray<OutcomeInB<T>>) => unknown }
): AnswerTranslation =>
(json) =>
  Result.map(decode(a, json), (outcomes) => {
    const told = outcomes.flatMap((outcome) => Option.toArray(inB(outcome)))
    const untold = outcomes.filter((outcome) => Option.isNone(inB(outcome))).map(({ key }) => [key, typeErrorUntold] as const)
    return { answer: b.write(told), ...(untold.length === 0 ? {} : { untold: Object.fromEntries(untold) }) }
  })

const TagCount = plain(TagCountJson)

/** A tag operation's count: the same number in both. */
export const countAnswer: AnswerTranslation = (json) => Result.map(decode(TagCount, json), (count) => ({ answer: TagCount.write(count) }))

const events = (json: unknown): Decoded<ReadonlyArray<A.WatchEventInA>> =>
  Array.isArray(json)
    ? Result.all(json.map((event, i) => decode(A.WatchEventJson, event, [i])))
    : Result.map(decode(A.WatchEventJson, json), (event) => [event])

/** A watch event, or an array of them (a recorded session), as B's events: one frame each. */
export const eventsAnswer: AnswerTranslation = (json) =>
  Result.map(events(json), (read) => {
    const written = read.map(B.WatchEventJson.write)
    return { answer: Array.isArray(json) ? written : written[0] }
  })

/** An answer B says with what A's lacks: refused, with why. */
export const untranslatedAnswer = (reason: string): AnswerTranslation => () => Result.fail(new Unexpressible({ reason }))
