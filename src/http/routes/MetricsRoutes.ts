import * as Effect from "effect/Effect"
import { PrometheusMetrics } from "effect/observability"
import { metrics } from "../../api/Metrics.ts"
import { observeWatchBacklog } from "../observation/WatchBacklog.ts"
import { bindGroup } from "../routing/Handlers.ts"

/**
 * `GET /metrics`: Effect's Prometheus exposition of the metric registry the gateway counts in, after the
 * gauges read at scrape time are set. Who may read it is its endpoint's access (src/api/Metrics.ts),
 * applied by the authentication step.
 */
export const metricsRoutes = bindGroup(metrics, { get_metrics: () => Effect.andThen(observeWatchBacklog, PrometheusMetrics.format()) })
