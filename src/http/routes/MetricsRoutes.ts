import { PrometheusMetrics } from "effect/observability"
import { metrics } from "../../api/Metrics.ts"
import { bindGroup } from "../routing/Handlers.ts"

/**
 * `GET /metrics`: Effect's Prometheus exposition of the metric registry the gateway counts in. Who may read
 * it is its endpoint's access (src/api/Metrics.ts), applied by the authentication step.
 */
export const metricsRoutes = bindGroup(metrics, { get_metrics: () => PrometheusMetrics.format() })
