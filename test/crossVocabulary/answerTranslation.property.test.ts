import * as fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { WatchEvent } from "../../src/domain/Watch.ts"
import * as A from "../../src/vocabulary/a/index.ts"
import { typeErrorUntold } from "../../src/vocabulary/AnswerTranslation.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import { decode } from "../../src/vocabulary/common/WireIssue.ts"
import type { Wire } from "../../src/vocabulary/common/WireShape.ts"
import { translateAnswerToB } from "../../src/api/Translation.ts"
import * as arb from "../arbitraries/domain.ts"
import { decoded } from "./answers.ts"

/**
 * `translateAnswerToB` on random answers: an A answer read with A's codec, its B translation read back
 * with B's, is the same canonical answer (in what A can say of it), but for the entries it says are
 * untold, which are exactly A's TypeErrors (B names their types, A does not).
 */

const runs = { numRuns: 300 }

/** The law for one operation's results: `[id, R]` pairs in A, a map in B. */
const resultsLaw = <T, WA, WB>(
  operation: string,
  a: { readonly wire: Wire<WA>; readonly read: (json: WA) => ReadonlyArray<A.OutcomeInA<T>> },
  b: { readonly wire: Wire<WB>; readonly read: (json: WB) => ReadonlyArray<A.OutcomeInA<T>> },
  json: unknown
) => {
  const inA = decoded(decode(a, json))
  const translated = decoded(translateAnswerToB(operation, json))
  const untold = translated.untold ?? {}
  const typeErrors = inA.filter(({ result }) => Result.isFailure(result) && result.failure._tag === "TypeMismatch")
  expect(Object.keys(untold)).toEqual(typeErrors.map(({ key }) => key))
  for (const why of Object.values(untold)) expect(why).toBe(typeErrorUntold)
  const inB = decoded(decode(b, translated.answer))
  expect(A.resultsInA(inB)).toEqual(inA.filter(({ key }) => !Object.hasOwn(untold, key)))
}

describe("an A answer translated to B reads back as the same canonical answer", () => {
  it("get_channel_value → fetch_values", () => {
    fc.assert(
      fc.property(arb.fetchResults, (results) =>
        resultsLaw("get_channel_value", A.FetchResultsJson, B.FetchResultsJson, A.FetchResultsJson.write(results))),
      runs
    )
  })

  it("put_channel_value → send_values", () => {
    fc.assert(
      fc.property(arb.sendResults, (results) =>
        resultsLaw("put_channel_value", A.SendResultsJson, B.SendResultsJson, A.SendResultsJson.write(results))),
      runs
    )
  })

  it("register_channel_watch → watch_values: an event, or an array of them", () => {
    const inA = arb.watchEvent.filter((event): event is Exclude<WatchEvent, { readonly _tag: "WatchRefused" }> => event._tag !== "WatchRefused")
    fc.assert(
      fc.property(fc.array(inA, { maxLength: 5 }), (events) => {
        const one = events[0]
        if (one !== undefined) {
          const single = decoded(translateAnswerToB("register_channel_watch", A.WatchEventJson.write(one)))
          expect(decoded(decode(B.WatchEventJson, single.answer))).toEqual(one)
        }
        const all = decoded(translateAnswerToB("register_channel_watch", events.map(A.WatchEventJson.write)))
        expect(Array.isArray(all.answer) ? all.answer.map((json) => decoded(decode(B.WatchEventJson, json))) : all.answer).toEqual(events)
      }),
      runs
    )
  })

  it("a tag operation's count is the same number", () => {
    fc.assert(
      fc.property(fc.constantFrom("put_node_tag", "delete_node_tag", "put_input_tag", "delete_output_tag"), fc.nat(), (operation, count) => {
        expect(decoded(translateAnswerToB(operation, count)).answer).toBe(count)
      }),
      runs
    )
  })
})
