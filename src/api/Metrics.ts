import * as Schema from "effect/Schema"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { tokenWithOrLoopback } from "./Access.ts"
import { endpoint, group } from "./Endpoint.ts"

/** `GET /metrics`: the gateway's metrics for Prometheus to scrape. */
export const metrics = group(endpoint({
  operationId: "get_metrics",
  method: "GET",
  path: "/metrics",
  access: tokenWithOrLoopback("metrics"),
  tag: "metrics",
  summary: DOCS ? "Metrics, in the Prometheus text format" : "",
  description: DOCS ? "Requests by vocabulary, operation and status, their durations, open watch sockets by vocabulary, what waits for the slowest watcher " +
    "(its queued events, its socket's unsent bytes), device " +
    "calls, errors and timeouts by adapter, logins refused, and vocabulary A's calls by token id. Needs a token with the " +
    "`metrics` right, unless the gateway runs with `--metrics-open-on-loopback` and the request comes from the machine itself." : "",
  answer: {
    status: 200,
    // Written as it is: Effect's Prometheus exposition writes the text.
    shape: { wire: Schema.String, write: (text: string) => text, read: (text: string) => text },
    mediaType: "text/plain; version=0.0.4; charset=utf-8",
    description: DOCS ? "The metrics, in the Prometheus text exposition format 0.0.4." : ""
  },
  errors: {
    "401": DOCS ? "No token, or a malformed, unknown, expired or revoked one (and not open on loopback for this request)." : "",
    "403": DOCS ? "The token does not grant the `metrics` right." : ""
  }
}))
