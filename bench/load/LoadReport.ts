import { Schema } from "effect"

/** What the load generator is asked to do (`node autocannon.js JSON`): one request, over and over, for a time. */
export const LoadRequest = Schema.Struct({
  url: Schema.String,
  method: Schema.Literals(["GET", "PUT", "POST"]),
  headers: Schema.Record(Schema.String, Schema.String),
  body: Schema.optionalKey(Schema.String),
  connections: Schema.Int,
  seconds: Schema.Finite
})
export type LoadRequest = typeof LoadRequest.Type

/** What it answers on stdout, as JSON. */
export const LoadReport = Schema.Struct({
  /** Answers with a 2xx status, and the others: a benchmark of refusals proves nothing. */
  ok: Schema.Int,
  notOk: Schema.Int,
  /** Connection errors and time-outs. */
  errors: Schema.Int,
  seconds: Schema.Finite,
  p50Ms: Schema.Finite,
  p99Ms: Schema.Finite
})
export type LoadReport = typeof LoadReport.Type

export const decodeLoadRequest = Schema.decodeUnknownSync(Schema.fromJsonString(LoadRequest))
export const decodeLoadReport = Schema.decodeUnknownEffect(Schema.fromJsonString(LoadReport))
