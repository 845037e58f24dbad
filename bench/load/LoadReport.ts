import { Schema } from "effect"

/** What the load generator is asked to do: one request, over and over, for a time. */
export interface LoadRequest {
  readonly url: string
  readonly method: "GET" | "PUT" | "POST"
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  readonly connections: number
  /** Whole seconds: wrk takes no fraction. */
  readonly seconds: number
}

/** What it answers, as one line of JSON on stdout (wrk's report script writes it). */
export const LoadReport = Schema.Struct({
  /** Answers below 400, and the others: a benchmark of refusals proves nothing. */
  ok: Schema.Int,
  notOk: Schema.Int,
  /** Connection errors (connect, read, write) and time-outs. */
  errors: Schema.Int,
  seconds: Schema.Finite,
  p50Ms: Schema.Finite,
  p99Ms: Schema.Finite
})
export type LoadReport = typeof LoadReport.Type

export const decodeLoadReport = Schema.decodeUnknownEffect(Schema.fromJsonString(LoadReport))
