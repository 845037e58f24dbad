import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { HttpServerResponse } from "effect/http"
import type { Caller } from "../../domain/Access.ts"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"
import type { PathFacts } from "./PathFacts.ts"
import { requestLogLine } from "./RequestLog.ts"
import { countVocabularyACall, type RequestCount, type RequestCounts, type VocabularyLabel } from "./RequestMetrics.ts"
import type { RequestNotes } from "./RequestNotes.ts"

/** What a request to a path and method is observed by, found once per path and method. */
export interface RouteFacts {
  readonly facts: PathFacts | undefined
  readonly operation: string
  readonly vocabulary: VocabularyLabel
  readonly count: RequestCount
}

/** What every observed request shares, decided once when the server starts. */
export interface Observer {
  /** The context the metrics are counted in (RequestMetrics). */
  readonly counted: Context.Context<never>
  /** The requests' counts in that registry. */
  readonly counts: RequestCounts
  /** `--deprecate-vocabulary-a`: the notice logged, and the headers an answer in A gains. */
  readonly deprecated: Option.Option<{ readonly notice: string }>
  readonly inA: (response: HttpServerResponse.HttpServerResponse) => HttpServerResponse.HttpServerResponse
}

/**
 * One request whose observation needs its notes (RequestNotes): what it learns while the request runs
 * (upgraded, the vocabulary spoken, the token) kept in one object's fields, read when its answer is
 * counted. One object per request, its steps on the prototype, where a closure for each note and step
 * and a context for their variables were made per request.
 */
export class ObservedRequest implements RequestNotes {
  private wasUpgraded = false
  private spoken: Vocabulary | undefined = undefined
  private tokenId: number | undefined = undefined

  constructor(
    private readonly observer: Observer,
    private readonly route: RouteFacts,
    private readonly method: string,
    private readonly path: string,
    private readonly start: number
  ) {}

  upgraded(): void {
    this.wasUpgraded = true
  }

  spoke(vocabulary: Vocabulary): Effect.Effect<void> {
    this.spoken = vocabulary
    if (!this.wasUpgraded) return Effect.void
    // A socket is counted now: it may stay open for days.
    const { counted, counts, deprecated } = this.observer
    counts.count(vocabulary, this.route.operation, 101, undefined)
    const { tokenId } = this
    if (vocabulary !== "a" || tokenId === undefined) return Effect.void
    countVocabularyACall(counted, tokenId)
    return Option.match(deprecated, {
      onNone: () => Effect.void,
      onSome: ({ notice }) => Effect.logInfo(`the watch socket of token ${tokenId} speaks vocabulary A: ${notice}`)
    })
  }

  madeWith(caller: Caller): void {
    // The Migration page's comparisons are not a client that still calls A: left out of its count (and series).
    if (caller.kind !== "comparison") this.tokenId = caller.tokenId
  }

  /** The answer, counted (and in A, marked deprecated if A is). */
  answered(response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse {
    const { counted, counts, inA } = this.observer
    const { operation } = this.route
    const vocabulary = this.spoken ?? this.route.vocabulary
    if (this.wasUpgraded) {
      // Counted when it registered; one that never did is counted as it closes.
      if (this.spoken === undefined) counts.count(vocabulary, operation, 101, undefined)
      return response
    }
    counts.count(vocabulary, operation, response.status, (performance.now() - this.start) / 1000)
    if (vocabulary !== "a") return response
    // Counted by the token it was let in with (RequestNotes), unless the core refused it too (403: a tag its scope selects by).
    if (this.tokenId !== undefined && response.status !== 403) countVocabularyACall(counted, this.tokenId)
    return inA(response)
  }

  /** The answer, counted, and its line in the request log (`--log-level debug`). */
  logged(response: HttpServerResponse.HttpServerResponse): Effect.Effect<HttpServerResponse.HttpServerResponse> {
    const sent = this.answered(response)
    const { spoken } = this
    const status = this.wasUpgraded ? 101 : response.status
    const line = requestLogLine(this.method, this.path, status, performance.now() - this.start, this.route.facts?.tag, spoken)
    const notice = (spoken ?? this.route.vocabulary) === "a" ? Option.map(this.observer.deprecated, ({ notice }) => notice) : Option.none()
    return Effect.as(Effect.logDebug(Option.match(notice, { onNone: () => line, onSome: (said) => `${line}: ${said}` })), sent)
  }
}
