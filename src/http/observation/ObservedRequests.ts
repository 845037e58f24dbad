import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { HttpServerResponse } from "effect/http"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"
import { givenService } from "../routing/AtOnce.ts"
import type { Answer } from "../routing/RouteTable.ts"
import { type PathFacts, pathFacts } from "./PathFacts.ts"
import { requestLogLine } from "./RequestLog.ts"
import {
  countRequest,
  countVocabularyACall,
  metricsContext,
  type RequestCount,
  requestCount,
  type VocabularyLabel
} from "./RequestMetrics.ts"
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

/**
 * Observes `answer`, given to a request to `method` and `path` that arrived at `start` (`performance.now()`):
 * the same answer, counted and logged.
 */
export type Observe = <R>(method: string, path: string, start: number, answer: Answer<R>) => Answer<R>

/** What a request to a path and method is observed by, found once per path and method. */
interface RouteFacts {
  readonly facts: PathFacts | undefined
  readonly operation: string
  readonly vocabulary: VocabularyLabel
  readonly count: RequestCount
}

/** The facts of each path and method asked for, found once: a path the gateway does not serve shares one. */
const routeFactsOf = () => {
  const unknown = requestCount("none", "none")
  const notServed: RouteFacts = { facts: undefined, operation: "none", vocabulary: "none", count: unknown }
  const known = new Map<string, Map<string, RouteFacts>>()
  return (method: string, path: string): RouteFacts => {
    const found = known.get(path)?.get(method)
    if (found !== undefined) return found
    const facts = pathFacts(path)
    if (facts === undefined) return notServed
    let methods = known.get(path)
    if (methods === undefined) {
      methods = new Map()
      known.set(path, methods)
    }
    // Node's parser knows a few dozen methods: a path has at most that many.
    const operation = facts.operations.get(method) ?? "none"
    const route = { facts, operation, vocabulary: facts.vocabulary, count: requestCount(facts.vocabulary, operation) }
    methods.set(method, route)
    return route
  }
}

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
  const counted = metricsContext(metrics)
  const routeFacts = routeFactsOf()
  return <R>(method: string, path: string, start: number, given: Answer<R>): Answer<R> => {
    const route = routeFacts(method, path)
    const { facts, operation, vocabulary: pathVocabulary } = route

    if ((pathVocabulary === "b" || pathVocabulary === "none") && !log) {
      if (HttpServerResponse.isHttpServerResponse(given)) {
        route.count(counted, given.status, (performance.now() - start) / 1000)
        return given
      }
      const count = (response: HttpServerResponse.HttpServerResponse) => {
        route.count(counted, response.status, (performance.now() - start) / 1000)
        return response
      }
      return (context) => Effect.mapEager(given(context), count)
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
        countRequest(counted, vocabulary, operation, 101, undefined)
        if (vocabulary !== "a" || tokenId === undefined) return Effect.void
        countVocabularyACall(counted, tokenId)
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
        if (spoken === undefined) countRequest(counted, vocabulary, operation, 101, undefined)
        return response
      }
      countRequest(counted, vocabulary, operation, response.status, (performance.now() - start) / 1000)
      if (vocabulary !== "a") return response
      // Counted by the token it was let in with (RequestNotes), unless the core refused it too (403: a tag its scope selects by).
      if (tokenId !== undefined && response.status !== 403) countVocabularyACall(counted, tokenId)
      return inA(response)
    }
    const logged = (response: HttpServerResponse.HttpServerResponse) => {
      const sent = answered(response)
      const line = requestLogLine(method, path, upgraded ? 101 : response.status, performance.now() - start, facts?.tag, spoken)
      const notice = (spoken ?? pathVocabulary) === "a" ? Option.map(deprecated, ({ notice }) => notice) : Option.none()
      return Effect.as(Effect.logDebug(Option.match(notice, { onNone: () => line, onSome: (said) => `${line}: ${said}` })), sent)
    }
    if (HttpServerResponse.isHttpServerResponse(given)) return log ? () => logged(given) : answered(given)
    return (context: Context.Context<R>) => {
      const noted = givenService(given(Context.add(context, RequestNotes, notes)), RequestNotes, notes)
      return log ? Effect.flatMapEager(noted, logged) : Effect.mapEager(noted, answered)
    }
  }
}
