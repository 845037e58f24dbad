import { BadRequest } from "./HttpError.ts"
import type { QueryParams } from "./Query.ts"

/**
 * The query parameters the API knows, on every path: `vocabulary` (which vocabulary a body or a
 * socket speaks) and `auth` (a token where no header can be set, docs/reference.md §8). Any other is refused like
 * an unknown body field: a client that sends `?tags=light` expects a filter, and answering everything
 * instead would mislead it.
 */
export const knownQueryParameters: ReadonlyArray<string> = ["auth", "vocabulary"]

const known = new Set(knownQueryParameters)

/** The 400 for the first unknown parameter, if any. */
export const unknownQueryParameter = (params: QueryParams): BadRequest | undefined => {
  const name = Object.keys(params).find((key) => !known.has(key))
  return name === undefined
    ? undefined
    : new BadRequest({
      message: `query: unknown parameter ${JSON.stringify(name)} (known: ${knownQueryParameters.join(", ")})`
    })
}
