import type * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { HttpServerRequest } from "effect/http"

/**
 * Query parameters of the current request (`?vocabulary=a`, `?auth=…`). The route table puts
 * them in the handler's context as `HttpServerRequest.ParsedSearchParams`, Effect's usual
 * service for them, so `HttpServerRequest.schemaSearchParams` works too.
 */

export type QueryParams = HttpServerRequest.ParsedSearchParams["Service"]

/** No query parameters: a URL without a query. */
export const none: QueryParams = {}

/** `a=1&b=2&b=3` → `{ a: "1", b: ["2", "3"] }`; `""` → `{}`. */
export const parse = (query: string): QueryParams => {
  if (query === "") return none
  // A Map, so that keys such as `__proto__` are plain keys.
  const params = new Map<string, string | Array<string>>()
  for (const [key, value] of new URLSearchParams(query)) {
    const previous = params.get(key)
    if (previous === undefined) params.set(key, value)
    else if (typeof previous === "string") params.set(key, [previous, value])
    else previous.push(value)
  }
  return Object.fromEntries(params)
}

/** The first value of a query parameter in `params`, if present. */
export const first = (params: QueryParams, name: string): string | undefined => {
  const value = Object.hasOwn(params, name) ? params[name] : undefined
  return typeof value === "string" ? value : value?.[0]
}

/** The first value of a query parameter of the current request, if present. */
export const param = (name: string): Effect.Effect<Option.Option<string>, never, HttpServerRequest.ParsedSearchParams> =>
  HttpServerRequest.ParsedSearchParams.useSync((params) => Option.fromUndefinedOr(first(params, name)))
