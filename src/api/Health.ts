import * as Schema from "effect/Schema"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { plain } from "../vocabulary/common/WireShape.ts"
import { open } from "./Access.ts"
import { endpoint, group, openBodyLimit } from "./Endpoint.ts"

/**
 * `/health` and `/ping`: they answer without a token, so supervisors, load balancers and clients can
 * probe the process. `/health` answers 503 (every route's refusal) while the gateway cannot serve.
 */

/** What `/health` says when something needs the operator's attention; the process still serves (200). */
const DegradedHealth = Schema.Struct({
  status: Schema.Literal("degraded"),
  reasons: Schema.Array(Schema.String).annotate({
    description: DOCS ? "What does not work, one sentence each: a refused home file change, an MQTT broker out of reach, a database " +
      "that cannot be written or is damaged." : ""
  }),
  home: Schema.NullOr(Schema.String).annotate({ description: DOCS ? "The home file; null for the built-in demo home." : "" }),
  last_reload_error: Schema.NullOr(Schema.String).annotate({ description: DOCS ? "Why the last change of the home file was refused, if it was." : "" }),
  adapters: Schema.Array(Schema.String).annotate({ description: DOCS ? "The adapters connected now." : "" }),
  version: Schema.String
}).annotate({ description: DOCS ? "The process serves, but something needs the operator's attention: the reasons say what." : "" })

/** `/health`'s answer. */
export const HealthJson = Schema.Union([
  Schema.Struct({ status: Schema.Literal("ok") }).annotate({ description: DOCS ? "All is well: exactly this." : "" }),
  DegradedHealth
]).annotate({ identifier: "Health", description: DOCS ? "The process is up and serves (200 either way)." : "" })

export type Health = typeof HealthJson.Type

const tag = "health"

export const health = group(
  endpoint({
    operationId: "health",
    method: "GET",
    path: "/health",
    access: open,
    bodyLimit: openBodyLimit,
    tag,
    summary: DOCS ? "Health probe" : "",
    description: DOCS ? "Answers without a token, so supervisors and load balancers can probe the process. 503, with the reasons as its " +
      "message, while this gateway cannot serve what another replica may: its database cannot be reached." : "",
    answer: {
      status: 200,
      shape: plain(HealthJson),
      description: DOCS ? "The process is up: `{\"status\": \"ok\"}`, or degraded with the reasons." : ""
    }
  }),
  endpoint({
    operationId: "health_head",
    method: "HEAD",
    path: "/health",
    access: open,
    bodyLimit: openBodyLimit,
    tag,
    summary: DOCS ? "Health probe, without a body" : "",
    description: DOCS ? "Answers like GET /health, without the body, for health checkers that send HEAD." : "",
    // The same answer as GET's (its headers with it); HEAD's body is left out as HTTP says.
    answer: { status: 200, shape: plain(HealthJson), description: DOCS ? "The process is up." : "" }
  }),
  endpoint({
    operationId: "ping",
    method: "GET",
    path: "/ping",
    access: open,
    bodyLimit: openBodyLimit,
    tag,
    summary: DOCS ? "Ping" : "",
    description: DOCS ? "Answers 204 without a token: the FoxBox web app waits for it before its first call." : "",
    answer: { status: 204, description: DOCS ? "The process is up." : "" }
  }),
  endpoint({
    operationId: "ping_head",
    method: "HEAD",
    path: "/ping",
    access: open,
    bodyLimit: openBodyLimit,
    tag,
    summary: DOCS ? "Ping, with HEAD" : "",
    description: DOCS ? "Answers like GET /ping." : "",
    answer: { status: 204, description: DOCS ? "The process is up." : "" }
  })
)
