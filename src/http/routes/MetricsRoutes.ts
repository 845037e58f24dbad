import { NodeHttpServerRequest } from "@effect/platform-node"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HttpServerRequest } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { metrics } from "../../api/Metrics.ts"
import { grants, MissingRight } from "../../domain/Access.ts"
import { authenticate } from "../routing/Authentication.ts"
import { bindGroup } from "../routing/Handlers.ts"
import { Forbidden } from "../routing/HttpError.ts"

/** Who may read `GET /metrics` besides a token with the `metrics` right (`--metrics-open-on-loopback`). */
export class MetricsAccess extends Context.Service<MetricsAccess, { readonly openOnLoopback: boolean }>()("app/MetricsAccess") {
  static readonly layer = (openOnLoopback: boolean) => Layer.succeed(MetricsAccess)({ openOnLoopback })
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
const isLoopback = (address: string): boolean => address === "::1" || /^(?:::ffff:)?127\./.test(address)

/** Headers by which a proxy says whom it relays a request for (RFC 7239, and the de facto ones). */
const relayedFor = ["forwarded", "x-forwarded-for", "x-real-ip"] as const

/**
 * A token with the `metrics` right (an unscoped one has every right), or, when open on loopback, a
 * connection from the machine itself (its peer's address, whatever the request's headers say) that no
 * proxy relays: a reverse proxy on the machine serving the gateway to others connects from loopback
 * too, and says so in these headers.
 */
const mayRead = Effect.gen(function*() {
  const { openOnLoopback } = yield* MetricsAccess
  const request = yield* HttpServerRequest.HttpServerRequest
  const peer = NodeHttpServerRequest.toIncomingMessage(request).socket.remoteAddress
  const relayed = relayedFor.some((header) => request.headers[header] !== undefined)
  if (openOnLoopback && peer !== undefined && isLoopback(peer) && !relayed) return
  const caller = yield* authenticate
  if (!grants(caller.scope, "metrics")) return yield* new Forbidden({ message: new MissingRight({ right: "metrics" }).message })
})

/** `GET /metrics`: Effect's Prometheus exposition of the metric registry the gateway counts in. */
export const metricsRoutes = bindGroup(metrics, { get_metrics: () => Effect.andThen(mayRead, PrometheusMetrics.format()) })
