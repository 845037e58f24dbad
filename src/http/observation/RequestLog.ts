import type { Tag } from "../../api/Endpoint.ts"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"

/**
 * The request log, at debug level (`--log-level debug`): one line per request with its method, path,
 * status, duration and vocabulary, e.g. `GET /api/v1/services 200 1.42 ms vocabulary B`. The query
 * string is left out: `?auth=` carries a token. Written by the observation of requests
 * (ObservedRequests), and only when debug is on at start (a logger per request costs ≈40 %,
 * docs/architecture.md).
 */

const labelOf = (tag: Tag | undefined): string =>
  tag === "vocabulary A" || tag === "vocabulary B" ? tag : tag === "shared" ? "vocabulary A or B" : "no vocabulary"

/**
 * A request's line: its vocabulary is the one it spoke (a shared path's body, a watch socket's
 * registrations), else its path's (whatever the method: a 405 is logged with it too).
 */
export const requestLogLine = (
  method: string,
  path: string,
  status: number,
  ms: number,
  tag: Tag | undefined,
  spoken: Vocabulary | undefined
): string => `${method} ${path} ${status} ${ms.toFixed(2)} ms ${spoken === undefined ? labelOf(tag) : `vocabulary ${spoken.toUpperCase()}`}`
