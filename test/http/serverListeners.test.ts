import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { createServer } from "node:http"
import { defaultGatewayOptions } from "../../src/GatewayOptions.ts"
import { IncomingRequest } from "../../src/http/routing/IncomingRequest.ts"
import * as Server from "../../src/http/transport/Server.ts"
import { layerOptions } from "../../src/main.ts"
import { testRoute } from "../support/testRoute.ts"

/**
 * What the gateway's own server (made with `serverOptions`) has Node do for every request, beside the
 * answer: the fixed cost every route pays (docs/architecture.md, "The Node server's listeners").
 */

const routes = [
  ...testRoute("GET", "/api/v1/ended", IncomingRequest.useSync(({ source }) => source.readableEnded)),
  ...testRoute("POST", "/api/v1/ended", IncomingRequest.useSync(({ source }) => source.readableEnded))
]

const nodeServer = createServer(Server.serverOptions)

const TestServer = Server.layer(routes, { ...layerOptions(defaultGatewayOptions).server, port: 0 }, () => nodeServer)

const url = Effect.map(HttpServer.HttpServer, ({ address }) => `http://127.0.0.1:${address._tag === "UnixPathAddress" ? 0 : address.port}`)

const answer = (path: string, init?: RequestInit) =>
  Effect.flatMap(url, (base) =>
    Effect.promise(async () => {
      const response = await fetch(`${base}${path}`, init)
      return { status: response.status, body: await response.json() }
    }))

layer(TestServer, { excludeTestServices: true })("the gateway's server", (it) => {
  it.effect("answers through one request listener once it serves (with two, Node copies their list on every request)", () =>
    Effect.gen(function*() {
      expect(yield* answer("/api/v1/ended")).toMatchObject({ status: 200 })
      expect(nodeServer.listenerCount("request")).toBe(1)
    }))

  it.effect("takes a request without a body as ended when it arrives, and reads one with a body", () =>
    Effect.gen(function*() {
      expect(yield* answer("/api/v1/ended")).toEqual({ status: 200, body: true })
      const withBody = yield* answer("/api/v1/ended", { method: "POST", body: "[1]", headers: { "content-type": "application/json" } })
      // Read before the app ran (BodyFirst), to its end.
      expect(withBody).toEqual({ status: 200, body: true })
    }))
})
