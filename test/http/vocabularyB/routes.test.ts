import { describe, expect, it } from "vitest"
import { withoutTimes } from "../../docs/docExamples.ts"
import { send } from "../../support/httpRequest.ts"
import { sharedGateway } from "../../support/hookedGateway.ts"
import { getters, home, services, setters, expectUntouched } from "./homes.ts"

/**
 * The routes of vocabulary B (docs/reference.md §6.2): every path and alias with its methods, each answering 200 with
 * JSON; 405 with `Allow` for another method; 404 for an unknown path.
 */

/** Every route of vocabulary B with its methods (docs/reference.md §6.2), aliases included. */
const routes: ReadonlyArray<readonly [path: string, methods: ReadonlyArray<string>]> = [
  ["/api/v1/services", ["GET", "POST"]],
  ["/api/v1/services/tag", ["POST", "DELETE"]],
  ["/api/v1/services/tags", ["POST", "DELETE"]],
  ["/api/v1/channels/getters", ["GET", "POST"]],
  ["/api/v1/channels/setters", ["GET", "POST"]],
  ["/api/v1/channels/tag", ["POST", "DELETE"]],
  ["/api/v1/channels/getter/tags", ["POST", "DELETE"]],
  ["/api/v1/channels/setter/tags", ["POST", "DELETE"]],
  ["/api/v1/channels/get", ["GET", "PUT", "POST"]],
  ["/api/v1/channels/set", ["PUT"]]
]

/** A body every method of the route takes, and its exact answer. The tag and send bodies change nothing. */
const exampleOf: Readonly<Record<string, { readonly body: unknown; readonly answer: unknown }>> = {
  "/api/v1/services": { body: { id: "service:garden@b" }, answer: [services.garden] },
  "/api/v1/services/tag": { body: { services: { id: "service:nowhere@b" }, tags: ["x"] }, answer: 0 },
  "/api/v1/services/tags": { body: { services: { id: "service:nowhere@b" }, tags: ["x"] }, answer: 0 },
  "/api/v1/channels/getters": { body: { id: "getter:garden-time@b" }, answer: [getters.gardenTime] },
  "/api/v1/channels/setters": { body: { id: "setter:sprinkler@b" }, answer: [setters.sprinkler] },
  "/api/v1/channels/tag": { body: { set: { id: "getter:nowhere@b" }, tags: ["x"] }, answer: 0 },
  "/api/v1/channels/getter/tags": { body: { getters: { id: "getter:garden-time@b" }, tags: [] }, answer: 1 },
  "/api/v1/channels/setter/tags": { body: { setters: { id: "setter:nowhere@b" }, tags: ["x"] }, answer: 0 },
  "/api/v1/channels/get": { body: { id: "getter:garden-time@b" }, answer: { "getter:garden-time@b": { Duration: 21600 } } },
  "/api/v1/channels/set": {
    body: { select: { id: "setter:nowhere@b" }, value: { OnOff: "On" } },
    answer: { "setter:nowhere@b": { Error: { NoSuchSetter: "setter:nowhere@b" } } }
  }
}

const example = (path: string) => {
  const found = exampleOf[path]
  if (found === undefined) throw new Error(`no example for ${path}`)
  return found
}

const everyMethod = ["GET", "POST", "PUT", "DELETE", "PATCH"]

describe("the routes of vocabulary B", () => {
  const { call, gateway } = sharedGateway(home)

  it.each(routes.flatMap(([path, methods]) => methods.map((method) => [method, path] as const)))(
    "%s %s answers 200 with its JSON answer",
    async (method, path) => {
      const { body, answer: expected } = example(path)
      const reply = await gateway().call(method, path, body)
      expect({ status: reply.status, contentType: reply.headers["content-type"], body: withoutTimes(reply.json) }).toEqual({
        status: 200,
        contentType: "application/json",
        body: expected
      })
    }
  )

  it.each(routes.flatMap(([path, methods]) => everyMethod.filter((m) => !methods.includes(m)).map((m) => [m, path, methods] as const)))(
    "%s %s is a 405 whose Allow header lists the methods of the path",
    async (method, path, methods) => {
      const reply = await gateway().call(method, path, example(path).body)
      const allow = String(reply.headers["allow"])
      expect({ status: reply.status, allow: allow.split(", ").sort(), body: reply.json }).toEqual({
        status: 405,
        allow: [...methods].sort(),
        body: `method ${method} not allowed here; allowed: ${allow}`
      })
    }
  )

  it.each([
    "/api/v1/service",
    "/api/v1/services/",
    "/api/v2/services",
    "/api/v1/channels/getter",
    "/api/v1/channels/setters/tags",
    "/api/v1/channels/value/get",
    "/services"
  ])("answers 404 with a JSON string for the unknown path %s", async (path) => {
    const reply = await gateway().call("GET", path)
    expect({ status: reply.status, contentType: reply.headers["content-type"], body: reply.json }).toEqual({
      status: 404,
      contentType: "application/json",
      body: `no such path: ${path}`
    })
  })

  it("reads a GET body sent in chunks, with no Content-Length", async () => {
    const reply = await send(`${gateway().baseUrl}/api/v1/channels/get`, {
      method: "GET",
      headers: { "transfer-encoding": "chunked", authorization: `Bearer ${gateway().token}` },
      chunks: ["[{\"id\": \"getter:", "garden-time@b\"}]"],
      end: true
    })
    expect({ status: reply.status, body: JSON.parse(reply.body) }).toEqual({
      status: 200,
      body: { "getter:garden-time@b": { Duration: 21600 } }
    })
  })

  it("reads the path without its query string (?vocabulary= is known everywhere)", async () => {
    expect(await call("GET", "/api/v1/channels/get?vocabulary=b", { id: "getter:garden-time@b" })).toEqual({
      status: 200,
      body: { "getter:garden-time@b": { Duration: 21600 } }
    })
  })

  it("has written nothing after all these requests", async () => {
    await expectUntouched(call)
  })
})
