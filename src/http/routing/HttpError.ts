import * as Data from "effect/Data"
import * as Schema from "effect/Schema"
import { HttpServerResponse } from "effect/http"

/**
 * The error responses of docs/reference.md §10. Handlers fail with these; `toResponse` renders them.
 * Every body is a JSON string a person can read.
 */

/** 400: the body is malformed (syntax, shape, unknown field, invalid value). */
export class BadRequest extends Data.TaggedError("BadRequest")<{ readonly message: string }> {}

/** 401: credentials are missing or wrong. */
export class Unauthorized extends Data.TaggedError("Unauthorized")<{ readonly message: string }> {}

/** 403: the caller is known but not permitted. */
export class Forbidden extends Data.TaggedError("Forbidden")<{ readonly message: string }> {}

/** 404: no route has this path. */
export class NotFound extends Data.TaggedError("NotFound")<{ readonly path: string }> {
  override get message(): string {
    return `no such path: ${this.path}`
  }
}

/** 405: the path exists, but not with this method. */
export class MethodNotAllowed extends Data.TaggedError("MethodNotAllowed")<{
  readonly method: string
  readonly allow: ReadonlyArray<string>
}> {
  override get message(): string {
    return `method ${this.method} not allowed here; allowed: ${this.allow.join(", ")}`
  }
}

/** 413: the body is longer than the configured limit. */
export class PayloadTooLarge extends Data.TaggedError("PayloadTooLarge")<{ readonly limit: number }> {
  override get message(): string {
    return `body: larger than the limit of ${this.limit} bytes`
  }
}

/** 410: what the path did can no longer be done (setup, once a user exists). */
export class Gone extends Data.TaggedError("Gone")<{ readonly message: string }> {}

/** 429: the caller should slow down; `retryAfterSeconds` becomes `Retry-After`. */
export class TooManyRequests extends Data.TaggedError("TooManyRequests")<{
  readonly message: string
  readonly retryAfterSeconds?: number | undefined
}> {}

/** 503: the gateway is starting or shutting down; `retryAfterSeconds` becomes `Retry-After`. */
export class ServiceUnavailable extends Data.TaggedError("ServiceUnavailable")<{
  readonly message: string
  readonly retryAfterSeconds?: number | undefined
}> {}

export type HttpError =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | MethodNotAllowed
  | Gone
  | PayloadTooLarge
  | TooManyRequests
  | ServiceUnavailable

const statusOf: { readonly [K in HttpError["_tag"]]: number } = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  Gone: 410,
  PayloadTooLarge: 413,
  TooManyRequests: 429,
  ServiceUnavailable: 503
}

/** Every error answer's body. */
export const ErrorMessageJson = Schema.String.annotate({
  identifier: "ErrorMessage",
  description: "Every error answer's body: a JSON string a person can read, naming where the problem is.",
  examples: ["body[0].tags: expected an array of strings"]
})

/** A JSON string body with the given status: the shape of every error response. */
export const jsonMessage = (status: number, message: string, headers?: Readonly<Record<string, string>>) =>
  HttpServerResponse.text(JSON.stringify(message), { status, contentType: "application/json", headers })

const headersOf = (error: HttpError): Readonly<Record<string, string>> | undefined => {
  switch (error._tag) {
    case "MethodNotAllowed":
      return { allow: error.allow.join(", ") }
    case "Unauthorized":
      return { "www-authenticate": "Bearer" }
    case "TooManyRequests":
    case "ServiceUnavailable":
      return error.retryAfterSeconds === undefined ? undefined : { "retry-after": String(error.retryAfterSeconds) }
    default:
      return undefined
  }
}

export const toResponse = (error: HttpError): HttpServerResponse.HttpServerResponse =>
  jsonMessage(statusOf[error._tag], error.message, headersOf(error))
