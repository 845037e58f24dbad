import { BadRequest } from "./HttpError.ts"
import type { QueryParams } from "./Query.ts"

/**
 * The query parameters the API knows on every path: `vocabulary` (which vocabulary a body or a socket
 * speaks) and `auth` (a token where no header can be set, docs/reference.md §8). A route also knows those
 * its endpoint declares (a listing's paging). Any other is refused like an unknown body field: a client
 * that sends `?tags=light` expects a filter, and answering everything instead would mislead it.
 */
export const everyPathParameters: ReadonlyArray<string> = ["auth", "vocabulary"]

/** The check of a route's query, given the parameters its endpoint declares: the 400 for the first unknown one, if any. */
export const queryCheck = (declared: ReadonlyArray<string>): (params: QueryParams) => BadRequest | undefined => {
  const names = [...new Set([...everyPathParameters, ...declared])].sort()
  const known = new Set(names)
  const listed = names.join(", ")
  return (params) => {
    // A loop, not `find`: asked on every request, most of which have no query at all.
    for (const name of Object.keys(params)) {
      if (!known.has(name)) return new BadRequest({ message: `query: unknown parameter ${JSON.stringify(name)} (known: ${listed})` })
    }
    return undefined
  }
}
