import { request } from "node:http"
import { describe, expect, it } from "vitest"
import { openBodyLimit } from "../../../src/api/Endpoint.ts"
import { maxSelectorsPerRequest, maxTagsPerRequest } from "../../../src/http/body/RequestLimits.ts"
import { send } from "../../support/httpRequest.ts"
import { sharedGateway } from "../../support/hookedGateway.ts"
import { home, expectUntouched } from "./homes.ts"

/**
 * The limits of one vocabulary B request (docs/reference.md §9, src/http/body/RequestLimits.ts): 413 over the body size
 * limit, 400 past the selector and tag limits; nothing written or tagged past any of them.
 */

describe("the body size limit", () => {
  const limit = 256
  const { call, gateway } = sharedGateway(home, { maxBodyBytes: limit })
  const write = JSON.stringify({ select: { id: "setter:porch-light-on@b" }, value: { OnOff: "On" } })

  it("takes a body of exactly the limit", async () => {
    expect(await call("PUT", "/api/v1/channels/set", write.padEnd(limit, " "))).toEqual({
      status: 200,
      body: { "setter:porch-light-on@b": null }
    })
    await call("PUT", "/api/v1/channels/set", { select: { id: "setter:porch-light-on@b" }, value: { OnOff: "Off" } })
  })

  it("answers 413 with a JSON string for a body one byte over, and writes nothing", async () => {
    const reply = await gateway().call("PUT", "/api/v1/channels/set", write.padEnd(limit + 1, " "))
    expect({ status: reply.status, contentType: reply.headers["content-type"], body: reply.json }).toEqual({
      status: 413,
      contentType: "application/json",
      body: `body: larger than the limit of ${limit} bytes`
    })
    expect(await call("GET", "/api/v1/channels/get", { id: "getter:porch-light-on@b" })).toEqual({
      status: 200,
      body: { "getter:porch-light-on@b": { OnOff: "Off" } }
    })
  })

  it("answers 413 for an oversize body on a read and on a tag operation", async () => {
    const selectors = JSON.stringify(Array.from({ length: 100 }, () => ({})))
    expect(await call("GET", "/api/v1/channels/getters", selectors)).toEqual({
      status: 413,
      body: `body: larger than the limit of ${limit} bytes`
    })
    expect(await call("POST", "/api/v1/services/tag", JSON.stringify({ services: {}, tags: ["x".repeat(limit)] }))).toEqual({
      status: 413,
      body: `body: larger than the limit of ${limit} bytes`
    })
    expect(await call("GET", "/api/v1/services", { tags: ["x"] })).toEqual({ status: 200, body: [] })
  })

  it("answers 413 for a chunked body that grows past the limit", async () => {
    const reply = await send(`${gateway().baseUrl}/api/v1/channels/set`, {
      method: "PUT",
      headers: { authorization: `Bearer ${gateway().token}` },
      chunks: [write, " ".repeat(limit)],
      end: true
    })
    expect({ status: reply.status, body: JSON.parse(reply.body) }).toEqual({
      status: 413,
      body: `body: larger than the limit of ${limit} bytes`
    })
  })
})

describe("a route's own body limit", () => {
  const { gateway } = sharedGateway(home)
  // Under the server's limit (1 MiB), over the open routes' (8 KiB).
  const body = JSON.stringify({ username: "x".repeat(openBodyLimit), email: "a@b.c", password: "p" })
  const tooLarge = { status: 413, body: JSON.stringify(`body: larger than the limit of ${openBodyLimit} bytes`) }

  it("refuses on an open route a body the server's limit takes, declared or chunked", async () => {
    const setup = `${gateway().baseUrl}/users/setup`
    expect(await send(setup, { method: "POST", body })).toMatchObject(tooLarge)
    expect(await send(setup, { method: "POST", chunks: [body], end: true })).toMatchObject(tooLarge)
    // The same bytes where the server's limit applies are read: a 400 for their shape.
    const reply = await send(`${gateway().baseUrl}/api/v1/channels/set`, { method: "PUT", headers: { authorization: `Bearer ${gateway().token}` }, body })
    expect(reply.status).toBe(400)
  })

  it("takes on an open route a body within its limit", async () => {
    const reply = await send(`${gateway().baseUrl}/users/setup`, { method: "POST", body: JSON.stringify({ username: "u", email: "e", password: "p" }) })
    // A user exists already: setup is done, the body was read.
    expect(reply.status).toBe(410)
  })

  /** Whether the server asks for a body of `length` bytes (`100 Continue`) before it answers, and its status. */
  const askedFor = (method: string, path: string, length: number) =>
    new Promise<{ readonly continued: boolean; readonly status: number }>((resolve, reject) => {
      const req = request(`${gateway().baseUrl}${path}`, { method, headers: { expect: "100-continue", "content-length": String(length) }, agent: false })
      let continued = false
      req.on("continue", () => {
        continued = true
        req.end(" ".repeat(length))
      })
      req.on("response", (response) => {
        response.resume()
        resolve({ continued, status: response.statusCode ?? 0 })
        req.destroy()
      })
      req.on("error", reject)
    })

  it("answers a body declared over the route's limit, or sent where no route answers, without reading it", async () => {
    // A body within the limit is asked for; setup, done already, then answers 410 without decoding it.
    expect(await askedFor("POST", "/users/setup", 16)).toEqual({ continued: true, status: 410 })
    expect(await askedFor("POST", "/users/setup", openBodyLimit + 1)).toEqual({ continued: false, status: 413 })
    expect(await askedFor("POST", "/api/v1/nowhere", 16)).toEqual({ continued: false, status: 404 })
    expect(await askedFor("POST", "/health", 16)).toEqual({ continued: false, status: 405 })
  })
})

describe("the selector and tag limits of one request", () => {
  const { call } = sharedGateway(home)
  const selectors = (n: number) => Array.from({ length: n }, () => ({}))
  const tags = (n: number) => Array.from({ length: n }, (_, i) => `tag-${i}`)
  const tooManySelectors = (n: number) => `body: ${n} selectors, at most ${maxSelectorsPerRequest} per request`

  it(`takes ${maxSelectorsPerRequest} selectors and refuses one more on every operation`, async () => {
    expect((await call("GET", "/api/v1/channels/getters", selectors(maxSelectorsPerRequest))).status).toBe(200)
    for (const [method, path] of [
      ["GET", "/api/v1/services"],
      ["POST", "/api/v1/channels/getters"],
      ["GET", "/api/v1/channels/setters"],
      ["GET", "/api/v1/channels/get"]
    ] as const) {
      expect(await call(method, path, selectors(maxSelectorsPerRequest + 1))).toEqual({
        status: 400,
        body: tooManySelectors(maxSelectorsPerRequest + 1)
      })
    }
  })

  it("counts the channel selectors inside service selectors", async () => {
    const nested = (n: number) => [{ getters: selectors(n) }]
    expect((await call("GET", "/api/v1/services", nested(maxSelectorsPerRequest - 1))).status).toBe(200)
    expect(await call("GET", "/api/v1/services", nested(maxSelectorsPerRequest))).toEqual({
      status: 400,
      body: tooManySelectors(maxSelectorsPerRequest + 1)
    })
  })

  it("counts the selectors of every target of a write together, and writes nothing past the limit", async () => {
    const half = maxSelectorsPerRequest / 2
    const body = [
      { select: [{ kind: "OnOff" }, ...selectors(half)], value: { OnOff: "On" } },
      { select: selectors(half), value: { OnOff: "On" } }
    ]
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 400,
      body: tooManySelectors(maxSelectorsPerRequest + 1)
    })
    await expectUntouched(call)
  })

  it(`takes ${maxTagsPerRequest} tags and refuses one more, tagging nothing`, async () => {
    expect(await call("POST", "/api/v1/services/tag", { services: { id: "service:nowhere@b" }, tags: tags(maxTagsPerRequest) })).toEqual({
      status: 200,
      body: 0
    })
    for (const [path, key] of [
      ["/api/v1/services/tag", "services"],
      ["/api/v1/channels/tag", "set"],
      ["/api/v1/channels/getter/tags", "getters"],
      ["/api/v1/channels/setter/tags", "setters"]
    ] as const) {
      expect(await call("POST", path, { [key]: {}, tags: tags(maxTagsPerRequest + 1) })).toEqual({
        status: 400,
        body: `body.tags: ${maxTagsPerRequest + 1} tags, at most ${maxTagsPerRequest} per request`
      })
    }
    expect(await call("POST", "/api/v1/channels/tag", { set: selectors(maxSelectorsPerRequest + 1), tags: ["x"] })).toEqual({
      status: 400,
      body: tooManySelectors(maxSelectorsPerRequest + 1)
    })
    await expectUntouched(call)
  })
})
