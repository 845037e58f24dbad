import { Context, Duration, Effect } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { api, endpointsOf } from "../api/Api.ts"
import { routesOf, type Tag } from "../api/Endpoint.ts"
import type { Vocabulary } from "../vocabulary/ChannelTagBody.ts"

/**
 * The request log, at debug level (`--log-level debug`): one line per request with its method, path,
 * status, duration and vocabulary, e.g. `GET /api/v1/services 200 1.42 ms vocabulary B`. The query
 * string is left out: `?auth=` carries a token. The server wraps its app in this only when debug is
 * on, so that it costs nothing otherwise (a logger per request costs ≈40 %, docs/architecture.md).
 */

const labelOf = (tag: Tag): string =>
  tag === "vocabulary A" || tag === "vocabulary B" ? tag : tag === "shared" ? "vocabulary A or B" : "no vocabulary"

/**
 * Which vocabulary each path speaks (whatever the method: a 405 is logged with it too), from the
 * endpoints of the API, which describe every route.
 */
const vocabularies = new Map<string, string>(endpointsOf(api).flatMap(routesOf).map((route) => [route.path, labelOf(route.endpoint.tag)]))

const vocabularyOf = (path: string): string => vocabularies.get(path) ?? "no vocabulary"

/**
 * What a request's log line learns only while the request runs, from the watch socket: that the
 * connection was upgraded (the client was answered 101, whatever the handler returns once the socket
 * closes), and the vocabulary the socket spoke, which its first registration tells. Nobody listens
 * unless the log is on.
 */
export interface RequestLogNotes {
  readonly upgraded: () => void
  readonly spoke: (vocabulary: Vocabulary) => void
}

const unheard: RequestLogNotes = { upgraded: () => {}, spoke: () => {} }

export const RequestLogNotes = Context.Reference<RequestLogNotes>("app/RequestLogNotes", { defaultValue: () => unheard })

export const withRequestLog = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    let upgraded = false
    let spoken: Vocabulary | undefined
    const notes: RequestLogNotes = {
      upgraded: () => {
        upgraded = true
      },
      spoke: (vocabulary) => {
        spoken = vocabulary
      }
    }
    return Effect.timed(Effect.provideService(app, RequestLogNotes, notes)).pipe(
      Effect.flatMap(([duration, response]) => {
        const queryStart = request.url.indexOf("?")
        const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart)
        const ms = Duration.toMillis(duration).toFixed(2)
        const status = upgraded ? 101 : response.status
        const vocabulary = spoken === undefined ? vocabularyOf(path) : `vocabulary ${spoken.toUpperCase()}`
        return Effect.as(Effect.logDebug(`${request.method} ${path} ${status} ${ms} ms ${vocabulary}`), response)
      })
    )
  })
