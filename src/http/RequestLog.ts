import { Duration, Effect } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { type OperationTag, operations } from "./openapi/Operations.ts"

/**
 * The request log, at debug level (`--log-level debug`): one line per request with its method, path,
 * status, duration and vocabulary, e.g. `GET /api/v1/services 200 1.42 ms vocabulary B`. The query
 * string is left out: `?auth=` carries a token. The server wraps its app in this only when debug is
 * on, so that it costs nothing otherwise (a logger per request costs ≈40 %, docs/architecture.md).
 */

const labelOf = (tag: OperationTag): string =>
  tag === "vocabulary A" || tag === "vocabulary B" ? tag : tag === "shared" ? "vocabulary A or B" : "no vocabulary"

/**
 * Which vocabulary each path speaks (whatever the method: a 405 is logged with it too), from the table
 * that describes every route, the OpenAPI one.
 */
const vocabularies = new Map(
  Object.entries(operations).map(([key, operation]) => [key.slice(key.indexOf(" ") + 1), labelOf(operation.tag)])
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
