import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { HttpServerResponse } from "effect/http"
import type { BinaryValue } from "../../domain/Outcome.ts"
import { IncomingRequest } from "./IncomingRequest.ts"

/** One media range of an `Accept` header: `image/*;q=0.5` is `{type: "image", subtype: "*", q: 0.5}`. */
interface MediaRange {
  readonly type: string
  readonly subtype: string
  readonly q: number
}

const parseRange = (text: string): MediaRange | undefined => {
  const [range = "", ...parameters] = text.split(";")
  const [type, subtype] = range.trim().toLowerCase().split("/")
  if (type === undefined || type === "" || subtype === undefined || subtype === "") return undefined
  const qParameter = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="))
  const q = qParameter === undefined ? 1 : Number(qParameter.slice(2))
  return Number.isFinite(q) ? { type, subtype, q: Math.min(Math.max(q, 0), 1) } : undefined
}

/** How much `accept` wants `mimetype`: the q of the most specific range that matches it, 0 if none does. */
const quality = (ranges: ReadonlyArray<MediaRange>, mimetype: string): number => {
  const [type = "", subtype = ""] = (mimetype.split(";")[0] ?? "").trim().toLowerCase().split("/")
  let best: { readonly specificity: number; readonly q: number } | undefined
  for (const range of ranges) {
    const specificity = range.type === type && range.subtype === subtype
      ? 2
      : range.type === type && range.subtype === "*"
      ? 1
      : range.type === "*" && range.subtype === "*"
      ? 0
      : -1
    if (specificity >= 0 && (best === undefined || specificity > best.specificity)) best = { specificity, q: range.q }
  }
  return best?.q ?? 0
}

/**
 * Whether an `Accept` header prefers `mimetype` to JSON, strictly: `image/jpeg`, `image/*`, or
 * `image/jpeg, application/json;q=0.5` do; no header, `*\/*`, or a tie do not, so JSON stays the answer
 * of every client that did not ask for anything else.
 */
export const prefersOverJson = (accept: string | undefined, mimetype: string): boolean => {
  if (accept === undefined || accept.trim() === "") return false
  const ranges = accept.split(",").flatMap((text) => parseRange(text) ?? [])
  return quality(ranges, mimetype) > quality(ranges, "application/json")
}

/** Said on every answer of a read of values, JSON or not: the answer depends on `Accept`, for caches. */
export const varyAccept = { vary: "accept" } as const

/**
 * The answer of a read of values: JSON in the vocabulary's shape (`json`, whose responses say
 * `varyAccept`) or, when the read answered exactly one channel with a Binary value (`rawBinary`) and
 * `Accept` prefers that value's mimetype, the bytes themselves with that `Content-Type` (as FoxBox served
 * a camera image). A read of no lone Binary value is answered without looking at the request.
 */
export const negotiated = <A>(
  rawBinary: (value: A) => Option.Option<BinaryValue>,
  json: (value: A) => HttpServerResponse.HttpServerResponse
) =>
(value: A): Effect.Effect<HttpServerResponse.HttpServerResponse, never, IncomingRequest> => {
  const binary = rawBinary(value)
  if (Option.isNone(binary)) return Effect.succeed(json(value))
  const { mimetype, data } = binary.value
  return IncomingRequest.useSync((request) =>
    prefersOverJson(request.headers["accept"], mimetype)
      ? HttpServerResponse.uint8Array(Uint8Array.from(data), { contentType: mimetype, headers: varyAccept })
      : json(value))
}
