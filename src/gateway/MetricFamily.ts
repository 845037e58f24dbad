/**
 * One metric per value of its labels, each made once, its labels given as the metric's own attributes:
 * updating it then only looks its series up in the context's `Metric.MetricRegistry`. (Effect's
 * `Metric.withAttributes` would add the attributes to a new context, and work out the series' key, on
 * every update: too much for the request path.)
 */
export const metricFamily = <K, M>(make: (key: K) => M): ((key: K) => M) => {
  const made = new Map<K, M>()
  return (key) => {
    let metric = made.get(key)
    if (metric === undefined) {
      metric = make(key)
      made.set(key, metric)
    }
    return metric
  }
}
