import * as Data from "effect/Data"
import { Unexpressible } from "../vocabulary/common/Unexpressible.ts"

/**
 * Why a request of the client did not get its answer, as typed values. `BadRequest` and `Unavailable`
 * carry the gateway's own message (every error body of the gateway is a readable JSON string).
 */

/** 401: no token, or one that is wrong, revoked or expired. */
export class Unauthorized extends Data.TaggedError("Unauthorized")<{ readonly message: string }> {}

/** 403: the token lacks the right the operation needs. */
export class Forbidden extends Data.TaggedError("Forbidden")<{ readonly message: string }> {}

/** Any other 4xx: the gateway refused the request as it is (a 400 names the place in the body). */
export class BadRequest extends Data.TaggedError("BadRequest")<{ readonly status: number; readonly message: string }> {}

/**
 * 429 or 5xx: the gateway cannot answer now; the same request may succeed later, after `retryAfterMs` when
 * the gateway said (`Retry-After`).
 */
export class Unavailable extends Data.TaggedError("Unavailable")<{
  readonly status: number
  readonly message: string
  readonly retryAfterMs: number | undefined
}> {}

/**
 * Why no answer came that reads: nothing listens (`Refused`), no answer in time (`TimedOut`: a write may
 * still have been applied), the host's name is unknown (`NameNotFound`), TLS failed (`Tls`), the
 * platform's `fetch` cannot send a GET with a body (`GetBody`), the connection failed or dropped
 * otherwise (`Dropped`), or what came back is not what the route answers (`Unreadable`).
 */
export type TransportReason = "Refused" | "TimedOut" | "NameNotFound" | "Tls" | "GetBody" | "Dropped" | "Unreadable"

/** No answer that reads; `cause` is the platform's own error, when there is one. */
export class Transport extends Data.TaggedError("Transport")<{
  readonly reason: TransportReason
  readonly message: string
  readonly cause?: unknown
}> {}

/** The operation needs a token (its route's access says so) and the client was made without one: nothing was sent. */
export class NoToken extends Data.TaggedError("NoToken")<{ readonly operationId: string }> {
  override get message(): string {
    return `${this.operationId} needs a token, and this client was made without one`
  }
}

export { Unexpressible }

/** What the gateway (or the way to it) answered instead. */
export type GatewayError = Unauthorized | Forbidden | BadRequest | Unavailable | Transport

/**
 * What a request may fail with: a gateway error, or, with nothing sent, a request the chosen vocabulary
 * cannot say or one that needs a token the client does not have.
 */
export type ClientError = GatewayError | Unexpressible | NoToken

/** `Retry-After` in milliseconds: seconds, or an HTTP date. */
const retryAfter = (header: string | undefined): number | undefined => {
  if (header === undefined) return undefined
  const ms = /^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - Date.now()
  return Number.isNaN(ms) ? undefined : Math.max(0, ms)
}

/** The error of a refused request, by its status, with the gateway's message (and `Retry-After`, if it says one). */
export const statusError = (status: number, message: string, retryAfterHeader?: string): GatewayError => {
  if (status === 401) return new Unauthorized({ message })
  if (status === 403) return new Forbidden({ message })
  if (status === 429 || status >= 500) return new Unavailable({ status, message, retryAfterMs: retryAfter(retryAfterHeader) })
  return new BadRequest({ status, message })
}
