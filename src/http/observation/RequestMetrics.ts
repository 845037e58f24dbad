import * as Context from "effect/Context"
import * as Metric from "effect/Metric"
import { metricFamily } from "../../gateway/MetricFamily.ts"
import { PlainCounter, PlainHistogram } from "../../gateway/PlainSeries.ts"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"

/**
 * The metrics of requests (`GET /metrics`), each updated synchronously: per request, a counter and a
 * histogram's series, found once per route, counted in plain numbers that the registry reads when it is read.
 *
 * A request's vocabulary is the one it was read in: its path's, or for a shared path (`/channels/tag`,
 * the watch socket) the one its body or first registration spoke; `unknown` for a request to a shared
 * path that was not read (refused before), `none` for the paths of no vocabulary.
 */
export type VocabularyLabel = Vocabulary | "unknown" | "none"

/** Upper bounds of the duration buckets, in seconds: 0.25 ms to 10 s. */
const durationBuckets = [0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const requests = metricFamily((vocabulary: VocabularyLabel) =>
  metricFamily((operation: string) =>
    metricFamily((status: number) =>
      Metric.counter("gateway_http_requests_total", {
        description: "Requests answered, by vocabulary, operation and status (a watch socket as its 101, once it registered).",
        incremental: true,
        attributes: { vocabulary, operation, status: String(status) }
      })
    )
  )
)

const durations = metricFamily((vocabulary: VocabularyLabel) =>
  metricFamily((operation: string) =>
    Metric.histogram("gateway_http_request_duration_seconds", {
      description: "How long requests took to answer, by vocabulary and operation (watch sockets left out).",
      boundaries: durationBuckets,
      attributes: { vocabulary, operation }
    })
  )
)

const vocabularyACallsId = "gateway_vocabulary_a_calls_total"

/** Token ids with a series of their own in `gateway_vocabulary_a_calls_total`; the calls of later ones count together. */
export const maxTokenSeries = 100

/** The series a token's calls count in: its id, or `other` once `maxTokenSeries` tokens have one. */
export type TokenSeries = number | "other"

const vocabularyACalls = metricFamily((token: TokenSeries) =>
  Metric.counter(vocabularyACallsId, {
    description: `Requests and watch sockets in vocabulary A, authorized, by token id: the first ${maxTokenSeries} tokens seen, then "other" (docs/migrating-a-to-b.md).`,
    incremental: true,
    attributes: { token: String(token) }
  })
)

// Per metric registry (one per gateway), the tokens that have a series of their own: a series, once made,
// goes on counting, so none ever decreases, and the number of series stays bounded.
const tokensWithSeries = new WeakMap<Metric.MetricRegistry, Set<number>>()

const seriesOf = (context: Context.Context<never>, tokenId: number): TokenSeries => {
  const registry = Context.get(context, Metric.MetricRegistry)
  let tokens = tokensWithSeries.get(registry)
  if (tokens === undefined) {
    tokens = new Set()
    tokensWithSeries.set(registry, tokens)
  }
  if (tokens.has(tokenId)) return tokenId
  if (tokens.size >= maxTokenSeries) return "other"
  tokens.add(tokenId)
  return tokenId
}

const watchSockets = metricFamily((vocabulary: VocabularyLabel) =>
  Metric.gauge("gateway_watch_sockets", {
    description: "Watch sockets open now, by the vocabulary they registered in (unknown: not yet registered).",
    attributes: { vocabulary }
  })
)

/**
 * The metrics updated on every request, in the registry of `context` only: what a metric looks its series
 * up by (the registry, and the attributes every series gets), each a lookup in a context of its own two
 * services instead of the gateway's whole context. Made once per server.
 */
export const metricsContext = (context: Context.Context<never>): Context.Context<never> =>
  Context.make(Metric.MetricRegistry, Context.get(context, Metric.MetricRegistry)).pipe(
    Context.add(Metric.CurrentMetricAttributes, Context.get(context, Metric.CurrentMetricAttributes))
  )

/** How a request to one route and method is counted, its series found once: by its status and duration, in seconds. */
export type RequestCount = (status: number, seconds: number) => void

/** The counts of requests in one metric registry, in plain numbers (PlainSeries): shared by every server counting in it. */
export interface RequestCounts {
  /** The count of the requests of `operation` read in `vocabulary`. */
  readonly route: (vocabulary: VocabularyLabel, operation: string) => RequestCount
  /** A request answered; `seconds`, how long it took (`undefined` for a watch socket). */
  readonly count: (vocabulary: VocabularyLabel, operation: string, status: number, seconds: number | undefined) => void
}

const countsOfRegistry = new WeakMap<Metric.MetricRegistry, RequestCounts>()

const makeRequestCounts = (context: Context.Context<never>): RequestCounts => {
  const counters = metricFamily((vocabulary: VocabularyLabel) =>
    metricFamily((operation: string) =>
      metricFamily((status: number) => new PlainCounter(requests(vocabulary)(operation)(status), context))
    )
  )
  const histograms = metricFamily((vocabulary: VocabularyLabel) =>
    metricFamily((operation: string) => new PlainHistogram(durations(vocabulary)(operation), durationBuckets, context))
  )
  return {
    route: (vocabulary, operation) => {
      const byStatus = counters(vocabulary)(operation)
      const duration = histograms(vocabulary)(operation)
      return (status, seconds) => {
        byStatus(status).add(1)
        duration.observe(seconds)
      }
    },
    count: (vocabulary, operation, status, seconds) => {
      counters(vocabulary)(operation)(status).add(1)
      if (seconds !== undefined) histograms(vocabulary)(operation).observe(seconds)
    }
  }
}

/** The counts of requests in the metric registry of `context` (`metricsContext`'s), made once per registry. */
export const requestCounts = (context: Context.Context<never>): RequestCounts => {
  const registry = Context.get(context, Metric.MetricRegistry)
  let counts = countsOfRegistry.get(registry)
  if (counts === undefined) {
    counts = makeRequestCounts(context)
    countsOfRegistry.set(registry, counts)
  }
  return counts
}

/** A request or watch socket of vocabulary A, authorized with this token. */
export const countVocabularyACall = (context: Context.Context<never>, tokenId: number): void =>
  vocabularyACalls(seriesOf(context, tokenId)).updateUnsafe(1, context)

/** A watch socket opened (`1`) or closed (`-1`) in `vocabulary`. */
export const countWatchSocket = (context: Context.Context<never>, vocabulary: VocabularyLabel, change: 1 | -1): void =>
  watchSockets(vocabulary).modifyUnsafe(change, context)

/** Vocabulary A's calls so far, by series (token id or `other`), as the registry of `context` holds them. */
export const vocabularyACallsByToken = (context: Context.Context<never>): ReadonlyMap<TokenSeries, number> =>
  new Map(
    Metric.snapshotUnsafe(context).flatMap((snapshot) => {
      const token = snapshot.attributes?.["token"]
      return snapshot.type === "Counter" && snapshot.id === vocabularyACallsId && token !== undefined
        ? [[token === "other" ? "other" : Number(token), Number(snapshot.state.count)] as const]
        : []
    })
  )
