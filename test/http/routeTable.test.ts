import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import { HttpServer, HttpServerRequest } from "effect/http"
import { defaultGatewayOptions } from "../../src/GatewayOptions.ts"
import { Unauthorized } from "../../src/http/routing/HttpError.ts"
import * as JsonBody from "../../src/http/body/JsonBody.ts"
import * as Query from "../../src/http/routing/Query.ts"
import { toHttpApp } from "../../src/http/routing/RouteTable.ts"
import * as Server from "../../src/http/transport/Server.ts"
import { layerOptions } from "../../src/main.ts"
import { testRoute } from "../support/testRoute.ts"
import { type HttpReply, type HttpRequestOptions, send } from "../support/httpRequest.ts"

const limit = 64

/** Echoes what the handler saw: the body (absent or present) and two query parameters. */
const echo = Effect.gen(function* () {
  const body = yield* JsonBody.read
  const vocabulary = yield* Query.param("vocabulary")
  const auth = yield* Query.param("auth")
  return {
    body: Option.match(body, { onNone: () => ({ absent: true }), onSome: (value) => ({ value }) }),
    vocabulary: Option.getOrNull(vocabulary),
    auth: Option.getOrNull(auth)
  }
})

const health = testRoute("GET", "/health", Effect.succeed({ status: "ok" }))

const routes = [
  ...health,
  ...testRoute("GET", "/api/v1/echo", echo),
  ...testRoute("POST", "/api/v1/echo", echo),
  ...testRoute("GET", "/boom", Effect.die(new Error("a bug in a handler"))),
  // A handler whose bug throws while it makes its program, outside any fiber.
  ...testRoute("GET", "/thrown", Effect.void).map((route) => ({
    ...route,
    handler: () => {
      throw new Error("a bug while making an answer")
    }
  })),
  ...testRoute("GET", "/private", Effect.fail(new Unauthorized({ message: "a token is required" }))),
  ...testRoute(
    "GET",
    "/method",
    Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.method)
  )
]

const TestServer = Server.layer(routes, { ...layerOptions(defaultGatewayOptions).server, port: 0, maxBodyBytes: limit })

const urlOf = (path: string) =>
  Effect.map(HttpServer.HttpServer, ({ address }) =>
    address._tag === "UnixPathAddress" ? address.path : `http://127.0.0.1:${address.port}${path}`
  )

const call = (path: string, options?: HttpRequestOptions) =>
  Effect.flatMap(urlOf(path), (url) => Effect.promise(() => send(url, options)))

/** An error response: the status, JSON content type, and a JSON string body; returns the string. */
const expectJsonString = (reply: HttpReply, status: number): string => {
  expect(reply.status).toBe(status)
  expect(reply.headers["content-type"]).toBe("application/json")
  const message: unknown = JSON.parse(reply.body)
  expect(typeof message).toBe("string")
  return String(message)
}

// Live services: these tests wait on real sockets, not on a test clock.
layer(TestServer, { excludeTestServices: true })("RouteTable over a real socket", (it) => {
  it.effect("answers a known route with 200 JSON", () =>
    Effect.gen(function* () {
      const reply = yield* call("/health")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toBe("application/json")
      expect(JSON.parse(reply.body)).toEqual({ status: "ok" })
    }))

  it.effect("answers an unknown path with 404 and a JSON string", () =>
    Effect.gen(function* () {
      expect(expectJsonString(yield* call("/nope"), 404)).toContain("/nope")
      // Other API versions are unknown paths too, and so is a known path with a trailing slash.
      expectJsonString(yield* call("/api/v2/echo"), 404)
      expectJsonString(yield* call("/health/"), 404)
    }))

  it.effect("answers a known path with a wrong method with 405 and Allow", () =>
    Effect.gen(function* () {
      const reply = yield* call("/api/v1/echo", { method: "DELETE" })
      expectJsonString(reply, 405)
      expect(reply.headers["allow"]).toBe("GET, POST")
    }))

  it.effect("renders a handler's HttpError, with WWW-Authenticate on 401", () =>
    Effect.gen(function* () {
      const reply = yield* call("/private")
      expect(expectJsonString(reply, 401)).toBe("a token is required")
      expect(reply.headers["www-authenticate"]).toBe("Bearer")
    }))

  it.effect("reads a JSON body sent with GET", () =>
    Effect.gen(function* () {
      const reply = yield* call("/api/v1/echo", { body: JSON.stringify([{ id: "getter:x@y" }]) })
      expect(reply.status).toBe(200)
      expect(JSON.parse(reply.body)).toMatchObject({ body: { value: [{ id: "getter:x@y" }] } })
    }))

  it.effect("reads a chunked JSON body under the limit", () =>
    Effect.gen(function* () {
      const reply = yield* call("/api/v1/echo", { method: "POST", chunks: ["[1,", "2]"], end: true })
      expect(JSON.parse(reply.body)).toMatchObject({ body: { value: [1, 2] } })
    }))

  it.effect("treats a missing or blank body as absent, and reads JSON null as a value", () =>
    Effect.gen(function* () {
      expect(JSON.parse((yield* call("/api/v1/echo")).body)).toMatchObject({ body: { absent: true } })
      expect(JSON.parse((yield* call("/api/v1/echo", { body: " \n" })).body)).toMatchObject({ body: { absent: true } })
      expect(JSON.parse((yield* call("/api/v1/echo", { body: "null" })).body)).toMatchObject({ body: { value: null } })
    }))

  it.effect("gives handlers the query parameters", () =>
    Effect.gen(function* () {
      const reply = yield* call("/api/v1/echo?vocabulary=b&auth=t%20k")
      expect(JSON.parse(reply.body)).toMatchObject({ vocabulary: "b", auth: "t k" })
    }))

  it.effect("answers malformed JSON with 400 and a readable JSON string", () =>
    Effect.gen(function* () {
      const message = expectJsonString(yield* call("/api/v1/echo", { body: "{\"a\":1" }), 400)
      expect(message).toMatch(/^body: invalid JSON: .*position 6/)
    }))

  it.effect("answers a body over the limit with 413 when Content-Length declares it", () =>
    Effect.gen(function* () {
      const message = expectJsonString(yield* call("/api/v1/echo", { body: JSON.stringify("x".repeat(limit)) }), 413)
      expect(message).toContain(String(limit))
    }))

  it.effect("answers a declared oversize body with 413 without waiting for it", () =>
    Effect.gen(function* () {
      // Only a few bytes of the declared length ever arrive: the answer must come from the header.
      const reply = yield* call("/api/v1/echo", { headers: { "content-length": "100000" }, chunks: ["[1,"] })
      expectJsonString(reply, 413)
    }))

  it.effect("answers a chunked body over the limit with 413 before the body ends", () =>
    Effect.gen(function* () {
      // The body is never ended: an answer proves the server stopped reading at the limit.
      const reply = yield* call("/api/v1/echo", { method: "POST", chunks: ["[\"" + "x".repeat(40), "x".repeat(40)] })
      expectJsonString(reply, 413)
    }))

  it.effect("answers a defect with 500 and a JSON string, and keeps serving", () =>
    Effect.gen(function* () {
      const message = expectJsonString(yield* call("/boom"), 500)
      expect(message).not.toContain("a bug in a handler")
      expect((yield* call("/health")).status).toBe(200)
    }))

  it.effect("answers 500 for a handler that throws while it makes its answer, and keeps serving", () =>
    Effect.gen(function* () {
      const message = expectJsonString(yield* call("/thrown"), 500)
      expect(message).not.toContain("a bug while making an answer")
      expect((yield* call("/health")).status).toBe(200)
    }))

  it.effect("gives the handler the request", () =>
    Effect.gen(function* () {
      expect(JSON.parse((yield* call("/method")).body)).toBe("GET")
    }))
})

describe("toHttpApp", () => {
  it("refuses two routes for one method and path", () => {
    const result = toHttpApp([...health, ...health])
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) expect(result.failure.message).toBe("two routes for GET /health")
  })
})
