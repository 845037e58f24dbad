/** The npm parser of the Prometheus text format, untyped: what it answers is decoded in prometheusText.ts. */
declare module "parse-prometheus-text-format" {
  const parse: (text: string) => unknown
  export default parse
}
