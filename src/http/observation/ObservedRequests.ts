import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { HttpServerResponse } from "effect/http"
import { doneAlready } from "../../gateway/AlreadyDone.ts"
import { givenService } from "../routing/AtOnce.ts"
import type { Answer } from "../routing/RouteTable.ts"
import { pathFacts } from "./PathFacts.ts"
import { ObservedRequest, type Observer, type RouteFacts } from "./ObservedRequest.ts"
import { metricsContext, type RequestCounts, requestCounts } from "./RequestMetrics.ts"
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

/** The facts of each path and method asked for, found once: a path the gateway does not serve shares one. */
const routeFactsOf = (counts: RequestCounts) => {
  const unknown = counts.route("none", "none")
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
    const route = { facts, operation, vocabulary: facts.vocabulary, count: counts.route(facts.vocabulary, operation) }
    methods.set(method, route)
    return route
  }
}

/**
 * Every request, observed: counted in the metrics by the vocabulary it was read in, its operation and
 * status, with its duration; logged at debug; and if A is deprecated, an answer in A carries the headers
 * that say so. All of it synchronously once the answer is known: an answer given at once (a 404, a 503)
 * stays one, a route's program gains one step, and a request to a path that tells its vocabulary by
 * itself and needs no token id (B's, the paths of no vocabulary) provides no notes, its program, done
 * at once, given back as the same `Exit`. A's need the token it
 * was let in with (A's authorized calls are counted by token); a shared path's requests, the vocabulary
 * they spoke. A watch socket is counted when it registers (it may stay open for days), as its 101.
 */
export const observing = ({ metrics, log, deprecation }: Observation): Observe => {
  const deprecated = Option.map(deprecation, (d) => ({ headers: deprecationHeaders(d), notice: deprecationNotice(d) }))
  const inA = Option.match(deprecated, {
    onNone: () => (response: HttpServerResponse.HttpServerResponse) => response,
    onSome: ({ headers }) => (response: HttpServerResponse.HttpServerResponse) => HttpServerResponse.setHeaders(response, headers)
  })
  const registry = metricsContext(metrics)
  const counts = requestCounts(registry)
  const observer: Observer = { counted: registry, counts, deprecated, inA }
  /** `response` to a request to `route` that arrived at `start`, counted. */
  const counted = (route: RouteFacts, start: number, response: HttpServerResponse.HttpServerResponse) => {
    route.count(response.status, (performance.now() - start) / 1000)
    return response
  }
  const routeFacts = routeFactsOf(counts)
  return <R>(method: string, path: string, start: number, given: Answer<R>): Answer<R> => {
    const route = routeFacts(method, path)
    const pathVocabulary = route.vocabulary

    if ((pathVocabulary === "b" || pathVocabulary === "none") && !log) {
      if (typeof given !== "function") return counted(route, start, given)
      return (context) => {
        const program = given(context)
        const done = doneAlready(program)
        if (done === undefined) return Effect.mapEager(program, (response) => counted(route, start, response))
        // Done at once (most answers are): counted now and given back as it is, with no closure nor new `Exit`.
        if (Exit.isSuccess(done)) counted(route, start, done.value)
        return program
      }
    }

    const observed = new ObservedRequest(observer, route, method, path, start)
    if (typeof given !== "function") return log ? () => observed.logged(given) : observed.answered(given)
    return (context: Context.Context<R>) => {
      const noted = givenService(given(Context.add(context, RequestNotes, observed)), RequestNotes, observed)
      return log
        ? Effect.flatMapEager(noted, (response) => observed.logged(response))
        : Effect.mapEager(noted, (response) => observed.answered(response))
    }
  }
}
