import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import { PrometheusMetrics } from "effect/observability"
import { describe, expect, it } from "vitest"
import { PlainCounter, PlainHistogram } from "../../src/gateway/PlainSeries.ts"

/** A context of a fresh metric registry, with an attribute every series gets. */
const registryContext = () =>
  Context.make(Metric.MetricRegistry, new Map()).pipe(Context.add(Metric.CurrentMetricAttributes, { replica: "r1" }))

const boundaries = [0.001, 0.01, 0.1, 1]
const counter = (status: string) => Metric.counter("answers_total", { description: "Answers.", incremental: true, attributes: { status } })
const histogram = Metric.histogram("answer_seconds", { description: "How long.", boundaries, attributes: { route: "health" } })

const exposition = (context: Context.Context<never>) => Effect.runSync(Effect.provideContext(PrometheusMetrics.format(), context))

describe("PlainSeries", () => {
  it("reads in the registry as Effect's own counter and histogram updated with the same values, each series there once used", () => {
    const own = registryContext()
    const plain = registryContext()
    const ok = new PlainCounter(counter("200"), plain)
    const refused = new PlainCounter(counter("503"), plain)
    const durations = new PlainHistogram(histogram, boundaries, plain)
    // Made and never counted: its series is not in the registry.
    new PlainCounter(counter("404"), plain)
    expect(exposition(plain)).toBe(exposition(own))

    const values = [0.0004, 0.001, 0.0011, 0.05, 0.1, 0.3, 2.5, 0.000001, 1]
    for (const [at, value] of values.entries()) {
      counter(at % 3 === 0 ? "503" : "200").updateUnsafe(1, own)
      ;(at % 3 === 0 ? refused : ok).add(1)
      histogram.updateUnsafe(value, own)
      durations.observe(value)
    }
    expect(exposition(plain)).toBe(exposition(own))
    expect(exposition(plain)).toContain('answers_total{status="503",replica="r1"} 3')
    expect(exposition(plain)).not.toContain('status="404"')
  })
})
