import { describe, expect, it } from "@effect/vitest"
import { HttpServerResponse } from "effect/http"
import {
  BadRequest,
  Forbidden,
  type HttpError,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  toResponse,
  TooManyRequests,
  Unauthorized
} from "../../src/http/routing/HttpError.ts"

const bodyOf = async (response: HttpServerResponse.HttpServerResponse): Promise<unknown> =>
  JSON.parse(await HttpServerResponse.toWeb(response).text())

describe("toResponse", () => {
  const cases: ReadonlyArray<readonly [HttpError, number]> = [
    [new BadRequest({ message: "body[0].tags: expected an array of strings" }), 400],
    [new Unauthorized({ message: "a token is required" }), 401],
    [new Forbidden({ message: "not yours" }), 403],
    [new NotFound({ path: "/api/v2/services" }), 404],
    [new MethodNotAllowed({ method: "PATCH", allow: ["GET", "POST"] }), 405],
    [new PayloadTooLarge({ limit: 1024 }), 413],
    [new TooManyRequests({ message: "slow down" }), 429],
    [new ServiceUnavailable({ message: "shutting down" }), 503]
  ]

  it.each(cases.map(([error, status]) => [error._tag, error, status] as const))(
    "renders %s as %i with a JSON string body",
    async (_tag, error, status) => {
    const response = toResponse(error)
    expect(response.status).toBe(status)
    expect(response.headers["content-type"]).toBe("application/json")
    expect(await bodyOf(response)).toBe(error.message)
    }
  )

  it("keeps the message a person reads", async () => {
    expect(await bodyOf(toResponse(new BadRequest({ message: "body[0].tags: expected an array of strings" })))).toBe(
      "body[0].tags: expected an array of strings"
    )
    expect(await bodyOf(toResponse(new PayloadTooLarge({ limit: 1024 })))).toContain("1024")
  })

  it("lists the allowed methods in Allow on 405", () => {
    expect(toResponse(new MethodNotAllowed({ method: "PATCH", allow: ["GET", "POST"] })).headers["allow"]).toBe(
      "GET, POST"
    )
  })

  it("asks for a bearer token on 401, and only there", () => {
    expect(toResponse(new Unauthorized({ message: "no" })).headers["www-authenticate"]).toBe("Bearer")
    expect(toResponse(new Forbidden({ message: "no" })).headers["www-authenticate"]).toBeUndefined()
  })

  it("says when to try again on 429 and 503 that know it", () => {
    expect(toResponse(new TooManyRequests({ message: "slow down", retryAfterSeconds: 60 })).headers["retry-after"]).toBe("60")
    expect(toResponse(new ServiceUnavailable({ message: "starting", retryAfterSeconds: 1 })).headers["retry-after"]).toBe("1")
    expect(toResponse(new ServiceUnavailable({ message: "shutting down" })).headers["retry-after"]).toBeUndefined()
  })
})
