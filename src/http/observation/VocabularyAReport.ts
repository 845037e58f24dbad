import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type TokenSeries, vocabularyACallsByToken } from "./RequestMetrics.ts"
import { deprecationNotice, type VocabularyADeprecation } from "./VocabularyADeprecation.ts"

/** Token ids in order, the tokens counted together last. */
const seriesOrder = (series: TokenSeries): number => (series === "other" ? Number.POSITIVE_INFINITY : series)

/** How many calls each series made between two readings of the counters (those that made none left out). */
export const callsSince = (
  before: ReadonlyMap<TokenSeries, number>,
  now: ReadonlyMap<TokenSeries, number>
): ReadonlyArray<readonly [TokenSeries, number]> =>
  [...now]
    .map(([token, count]) => [token, count - (before.get(token) ?? 0)] as const)
    .filter(([, calls]) => calls > 0)
    .sort(([a], [b]) => seriesOrder(a) - seriesOrder(b))

/** The line that names them, by token id (a label is free text). */
export const reportLine = (calls: ReadonlyArray<readonly [TokenSeries, number]>, deprecation: VocabularyADeprecation): string =>
  `tokens that still called vocabulary A since the last report: ${
    calls.map(([token, count]) => `${token === "other" ? "other tokens" : `token ${token}`} (${count} ${count === 1 ? "call" : "calls"})`).join(", ")
  }; ${deprecationNotice(deprecation)}`

/**
 * While A is deprecated, every `every` (a day), one log line of the tokens that called it since the
 * last one, with their counts, read from the metric `gateway_vocabulary_a_calls_total` (nothing is
 * counted twice); no line when none did.
 */
export const vocabularyAReport = (deprecation: Option.Option<VocabularyADeprecation>, every: Duration.Input) =>
  Option.match(deprecation, {
    onNone: () => Layer.empty,
    onSome: (deprecated) =>
      Layer.effectDiscard(Effect.gen(function*() {
        const context = yield* Effect.context<never>()
        let before = vocabularyACallsByToken(context)
        const report = Effect.suspend(() => {
          const now = vocabularyACallsByToken(context)
          const calls = callsSince(before, now)
          before = now
          return calls.length === 0 ? Effect.void : Effect.logInfo(reportLine(calls, deprecated))
        })
        yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(every), report)))
      }))
  })
