import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { parseJson } from "../../vocabulary/common/JsonText.ts"
import { problemInWords, translateAnswerToB } from "../../api/Translation.ts"
import type { Exchanged } from "../api/Api.ts"

/**
 * Whether vocabulary A's answer and vocabulary B's answer to the same request say the same: A's answer
 * is said in B's words by the project's own translation (`translateAnswerToB`) and compared with B's,
 * leaving out what A's answer cannot say (its `untold` entries, named instead).
 */

const succeeded = (answer: Exchanged): boolean => answer.status >= 200 && answer.status < 300

/** Whether two JSON documents are equal, an object's keys in any order (the schema's own equivalence). */
const isJson = Schema.is(Schema.Json)
const jsonEquals = Schema.toEquivalence(Schema.Json)
const sameJson = (x: unknown, y: unknown): boolean => isJson(x) && isJson(y) && jsonEquals(x, y)

/** `json` without the entries `keys` (an object: B's results keyed by channel id). */
const without = (json: unknown, keys: ReadonlyArray<string>): unknown =>
  typeof json === "object" && json !== null && !Array.isArray(json)
    ? Object.fromEntries(Object.entries(json).filter(([key]) => !keys.includes(key)))
    : json

const compact = (json: unknown): string => (json === undefined ? "no body" : JSON.stringify(json))

/** The agreement of the two answers, in words. */
export const agreementInWords = (operation: string, a: Exchanged, b: Exchanged): string => {
  if (!succeeded(a) || !succeeded(b)) {
    return a.status === b.status
      ? `Both were refused with ${a.status}, each in its own words.`
      : `They differ: A answered ${a.status}, B answered ${b.status}.`
  }
  const read = (answer: Exchanged) => (answer.text === "" ? Result.succeed(undefined) : parseJson(answer.text))
  const [jsonA, jsonB] = [read(a), read(b)]
  if (Result.isFailure(jsonA) || Result.isFailure(jsonB)) return "Not compared: an answer is not JSON."
  const translated = translateAnswerToB(operation, jsonA.success)
  if (Result.isFailure(translated)) return `Not compared: ${problemInWords(translated.failure, "answer")}.`
  const untold = Object.entries(translated.success.untold ?? {})
  const told = without(jsonB.success, untold.map(([key]) => key))
  const same = sameJson(translated.success.answer, told)
  const verdict = same
    ? "A's answer, said in vocabulary B, is B's answer."
    : `They differ: A's answer, said in vocabulary B, is ${compact(translated.success.answer)}; B answered ${compact(told)}.`
  return [verdict, ...untold.map(([key, why]) => `A's answer says less for ${key}: ${why}.`)].join(" ")
}
