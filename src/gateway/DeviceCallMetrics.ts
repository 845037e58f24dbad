import type * as Context from "effect/Context"
import * as Metric from "effect/Metric"
import { metricFamily } from "./MetricFamily.ts"

/**
 * How an adapter's call for one request ended (DeviceCall): whether it failed (the call, or its answer
 * for a channel), and whether it was cut at the device timeout.
 */
export interface CallEnd {
  readonly failed: boolean
  readonly timedOut: boolean
}

const ofAdapter = metricFamily((adapter: string) => {
  const attributes = { adapter }
  return {
    calls: Metric.counter("gateway_device_calls_total", {
      description: "Calls of an adapter: one per request and adapter, for all the channels of that adapter the request touches.",
      incremental: true,
      attributes
    }),
    errors: Metric.counter("gateway_device_call_errors_total", {
      description: "Calls of an adapter that failed, or answered a channel with a failure.",
      incremental: true,
      attributes
    }),
    timeouts: Metric.counter("gateway_device_call_timeouts_total", {
      description: "Calls of an adapter cut at the device timeout (--device-timeout).",
      incremental: true,
      attributes
    })
  }
})

/**
 * Counts the calls of each adapter and how they ended, in the metric registry of `context`. Synchronous:
 * it runs on every read and write. An adapter's errors and timeouts show as 0 from its first call on;
 * after it, only a call that failed or timed out touches them.
 */
export const deviceCallCounter = (context: Context.Context<never>) => {
  const called = new Set<string>()
  return (adapter: string, { failed, timedOut }: CallEnd): void => {
    const metrics = ofAdapter(adapter)
    const first = !called.has(adapter)
    if (first) called.add(adapter)
    metrics.calls.updateUnsafe(1, context)
    if (failed || first) metrics.errors.updateUnsafe(failed ? 1 : 0, context)
    if (timedOut || first) metrics.timeouts.updateUnsafe(timedOut ? 1 : 0, context)
  }
}
