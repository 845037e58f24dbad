import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { HttpServerResponse } from "effect/http"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"
import type { Answer } from "../routing/RouteTable.ts"
import { pathFacts } from "./PathFacts.ts"
import { requestLogLine } from "./RequestLog.ts"
import { countRequest, countVocabularyACall, type VocabularyLabel } from "./RequestMetrics.ts"
import { RequestNotes } from "./RequestNotes.ts"
import { deprecationHeaders, deprecationNotice, type VocabularyADeprecation } from "./VocabularyADeprecation.ts"

/** What is done with each request once it is answered, decided once when the server starts. */
export interface Observation {
  /** Its metrics are counted in this context's metric registry (RequestMetrics). */
  readonly metrics: Context.Context<never>
  /** `--log-level debug`: one line per request (RequestLog). */
  readonly log: boolean
  /** `--deprecate-vocabulary-a`: A's answers say it is deprecated. */
  readonly deprecation: Option.Option<VocabularyADeprecation>
}

/** Observes the answer `answer` gives a request to `method` and `path`: the same answer, counted and logged. */
export type Observe = <R>(method: string, path: string, answer: () => Answer<R>) => Answer<R>

/**
 * Every request, observed: counted in the metrics by the vocabulary it was read in, its operation and
 * status, with its duration; logged at debug; and if A is deprecated, an answer in A carries the headers
 * that say so. All of it synchronously once the answer is known: an answer given at once (a 404, a 503)
 * stays one, a route's program gains one step, and a request to a path that tells its vocabulary by
 * itself and needs no token id (B's, the paths of no vocabulary) provides no notes. A's need the token it
 * was let in with (A's authorized calls are counted by token); a shared path's requests, the vocabulary
 * they spoke. A watch socket is counted when it registers (it may stay open for days), as its 101.
 */
export const observing = ({ metrics, log, deprecation }: Observation): Observe => {
  const deprecated = Option.map(deprecation, (d) => ({ headers: deprecationHeaders(d), notice: deprecationNotice(d) }))
  const inA = Option.match(deprecated, {
    onNone: () => (response: HttpServerResponse.HttpServerResponse) => response,
    onSome: ({ headers }) => (response: HttpServerResponse.HttpServerResponse) => HttpServerResponse.setHeaders(response, headers)
  })
  return <R>(method: string, path: string, answer: () => Answer<R>): Answer<R> => {
    const start = performance.now()
    const facts = pathFacts(path)
    const operation = facts?.operations.get(method) ?? "none"
    const pathVocabulary: VocabularyLabel = facts?.vocabulary ?? "none"

    if ((pathVocabulary === "b" || pathVocabulary === "none") && !log) {
      const counted = (response: HttpServerResponse.HttpServerResponse) => {
        countRequest(metrics, pathVocabulary, operation, response.status, (performance.now() - start) / 1000)
        return response
      }
      const answered = answer()
      return HttpServerResponse.isHttpServerResponse(answered) ? counted(answered) : Effect.map(answered, counted)
    }

    let upgraded = false
    let spoken: Vocabulary | undefined
    let tokenId: number | undefined
    const notes: RequestNotes = {
      upgraded: () => {
        upgraded = true
      },
      spoke: (vocabulary) => {
        spoken = vocabulary
        if (!upgraded) return Effect.void
        // A socket is counted now: it may stay open for days.
        countRequest(metrics, vocabulary, operation, 101, undefined)
        if (vocabulary !== "a" || tokenId === undefined) return Effect.void
        countVocabularyACall(metrics, tokenId)
        return Option.match(deprecated, {
          onNone: () => Effect.void,
          onSome: ({ notice }) => Effect.logInfo(`the watch socket of token ${tokenId} speaks vocabulary A: ${notice}`)
        })
      },
      madeWith: (caller) => {
        // The Migration page's comparisons are not a client that still calls A: left out of its count (and series).
        if (caller.kind !== "comparison") tokenId = caller.tokenId
      }
    }
    const answered = (response: HttpServerResponse.HttpServerResponse) => {
      const vocabulary = spoken ?? pathVocabulary
      if (upgraded) {
        // Counted when it registered; one that never did is counted as it closes.
        if (spoken === undefined) countRequest(metrics, vocabulary, operation, 101, undefined)
        return response
      }
      countRequest(metrics, vocabulary, operation, response.status, (performance.now() - start) / 1000)
      if (vocabulary !== "a") return response
      // Counted by the token it was let in with (RequestNotes), unless the core refused it too (403: a tag its scope selects by).
      if (tokenId !== undefined && response.status !== 403) countVocabularyACall(metrics, tokenId)
      return inA(response)
    }
    const given = answer()
    const noted = HttpServerResponse.isHttpServerResponse(given) ? Effect.succeed(given) : Effect.provideService(given, RequestNotes, notes)
    if (!log) return HttpServerResponse.isHttpServerResponse(given) ? answered(given) : Effect.map(noted, answered)
    return Effect.flatMap(noted, (response) => {
      const sent = answered(response)
      const line = requestLogLine(method, path, upgraded ? 101 : response.status, performance.now() - start, facts?.tag, spoken)
      const notice = (spoken ?? pathVocabulary) === "a" ? Option.map(deprecated, ({ notice }) => notice) : Option.none()
      return Effect.as(Effect.logDebug(Option.match(notice, { onNone: () => line, onSome: (said) => `${line}: ${said}` })), sent)
    })
  }
}
