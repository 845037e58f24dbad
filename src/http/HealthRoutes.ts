import { Effect, Option, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HomeFileStatus } from "../gateway/HomeFileStatus.ts"
import { Registry } from "../gateway/Registry.ts"
import { gatewayVersion } from "../Version.ts"
import { ok, type Route, route } from "./RouteTable.ts"

/** What `/health` says when something needs the operator's attention; the process still serves (200). */
const DegradedHealth = Schema.Struct({
  status: Schema.Literal("degraded"),
  reason: Schema.String,
  home: Schema.NullOr(Schema.String).annotate({ description: "The home file; null for the built-in demo home." }),
  last_reload_error: Schema.NullOr(Schema.String).annotate({ description: "Why the last change of the home file was refused." }),
  adapters: Schema.Array(Schema.String).annotate({ description: "The adapters connected now." }),
  version: Schema.String
}).annotate({ description: "The process serves, but something needs the operator's attention (a home file change was refused)." })

/** `/health`'s answer. */
export const HealthJson = Schema.Union([
  Schema.Struct({ status: Schema.Literal("ok") }).annotate({ description: "All is well: exactly this." }),
  DegradedHealth
]).annotate({ identifier: "Health", description: "The process is up (200 either way)." })

export type Health = typeof HealthJson.Type

/**
 * Exactly `{"status": "ok"}` when all is well, so that simple probes can compare the body; otherwise
 * the reason and what an operator needs to look into it. Today the one thing that degrades the gateway
 * is a home file change it refused: it keeps serving the home before it.
 */
export const healthOf = (
  homeFile: Option.Option<string>,
  refusedChange: Option.Option<string>,
  adapters: ReadonlyArray<string>
): Health =>
  Option.match(refusedChange, {
    onNone: () => ({ status: "ok" }),
    onSome: (reason) => ({
      status: "degraded",
      reason: "the last change of the home file was refused; the home before it is still served",
      home: Option.getOrNull(homeFile),
      last_reload_error: reason,
      adapters,
      version: gatewayVersion
    })
  })

const health = Effect.gen(function*() {
  const homeFile = yield* HomeFileStatus
  const registry = yield* Registry
  return ok(healthOf(homeFile.file, yield* homeFile.refusedChange, yield* registry.adapters))
})

// The FoxBox web app waits for this before its first call.
const pong = Effect.succeed(HttpServerResponse.empty({ status: 204 }))

/**
 * `/health` (200, `ok` or `degraded`) and `/ping` (204): they answer without a token, so supervisors
 * and clients can probe the process. HEAD answers like GET, without the body, for health checkers.
 */
export const healthRoutes: ReadonlyArray<Route<HomeFileStatus | Registry>> = [
  route("GET", "/health", health),
  route("HEAD", "/health", health),
  route("GET", "/ping", pong),
  route("HEAD", "/ping", pong)
]
