import { Duration, Effect } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { operations } from "./openapi/Operations.ts"

/**
 * The request log, at debug level (`--log-level debug`): one line per request with its method, path,
 * status, duration and vocabulary, e.g. `GET /api/v1/services 200 1.42 ms vocabulary B`. The query
 * string is left out: `?auth=` carries a token. The server wraps its app in this only when debug is
 * on, so that it costs nothing otherwise (a logger per request costs ≈40 %, shared/style.md).
 */

const labels = { "vocabulary A": "vocabulary A", "vocabulary B": "vocabulary B", shared: "vocabulary A or B" } as const

/**
 * Which vocabulary each path speaks (whatever the method: a 405 is logged with it too), from the table
 * that describes every route, the OpenAPI one.
 */
const vocabularies = new Map(
  Object.entries(operations).map(([key, operation]) => {
    const tag = operation.tag
    return [key.slice(key.indexOf(" ") + 1), tag === "vocabulary A" || tag === "vocabulary B" || tag === "shared" ? labels[tag] : "no vocabulary"]
  })
)

const vocabularyOf = (path: string): string => vocabularies.get(path) ?? "no vocabulary"

export const withRequestLog = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.timed(app).pipe(
      Effect.flatMap(([duration, response]) => {
        const queryStart = request.url.indexOf("?")
        const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart)
        const ms = Duration.toMillis(duration).toFixed(2)
        return Effect.as(
          Effect.logDebug(`${request.method} ${path} ${response.status} ${ms} ms ${vocabularyOf(path)}`),
          response
        )
      })
    ))
