import { Option } from "effect"
import { Agent } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { routes } from "../../../src/main.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import { decoded } from "../../crossVocabulary/answers.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { type HttpReply, send } from "../../support/httpRequest.ts"
import { home } from "../vocabularyB/homes.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

const decodedScope = (json: unknown) => decoded(decode(B.ScopeJson, json))

/** Every route of both vocabularies (and the OpenAPI document): all of `/api/v1`. */
const apiRoutes = routes.filter((r) => r.path.startsWith("/api/v1/"))

let gateway: GatewayOverHttp
/**
 * Connections kept alive between requests: a new one per request was most of the CPU of the hundreds
 * refused here. A token is read per request, never per connection, and one connection carrying
 * requests of different tokens checks that too.
 */
const kept = new Agent({ keepAlive: true, timeout: 2_000 })
beforeAll(async () => {
  gateway = await startGateway(home)
})
afterAll(async () => {
  kept.destroy()
  await gateway.close()
})

const request = (method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<HttpReply> =>
  send(`${gateway.baseUrl}${path}`, { method, headers, agent: kept, ...(body === undefined ? {} : { body }) })

const expectRefused = (reply: HttpReply, what: string) => {
  expect({ what, status: reply.status, challenge: reply.headers["www-authenticate"], type: typeof JSON.parse(reply.body) }).toEqual({
    what,
    status: 401,
    challenge: "Bearer",
    type: "string"
  })
}

describe("a request to /api/v1", () => {
  it("covers every route of both vocabularies", () => {
    expect(apiRoutes.length).toBeGreaterThan(25)
    expect(apiRoutes.map((r) => r.path)).toEqual(expect.arrayContaining(["/api/v1/services", "/api/v1/nodes", "/api/v1/channels/tag"]))
  })

  it("is refused with 401 and WWW-Authenticate: Bearer without a token, on every route", async () => {
    for (const route of apiRoutes) expectRefused(await request(route.method, route.path), `${route.method} ${route.path}`)
  })

  it("is refused on every route with a malformed Authorization header", async () => {
    for (const header of ["Basic YWRtaW46eA==", "Bearer", "Bearer a b", gateway.token]) {
      for (const route of apiRoutes) {
        expectRefused(await request(route.method, route.path, { authorization: header }), `${route.method} ${route.path} ${header}`)
      }
    }
  })

  it("is refused on every route with an unknown, expired or revoked token", async () => {
    const expired = await gateway.createToken({ expiresAt: Date.now() - 1_000 })
    const revoked = await gateway.createToken()
    await gateway.revokeToken(revoked.id)
    const unknown = `gw_${"A".repeat(43)}`
    for (const token of [unknown, expired.token, revoked.token, `${gateway.token}x`]) {
      for (const route of apiRoutes) {
        expectRefused(await request(route.method, route.path, { authorization: `Bearer ${token}` }), `${route.method} ${route.path}`)
        expectRefused(await request(route.method, `${route.path}?auth=${encodeURIComponent(token)}`), `?auth= ${route.path}`)
      }
    }
  })

  it("is answered with the token in Authorization: Bearer or in ?auth=", async () => {
    const byHeader = await request("GET", "/api/v1/services", { authorization: `Bearer ${gateway.token}` })
    const byQuery = await request("GET", `/api/v1/services?auth=${gateway.token}`)
    expect(byHeader.status).toBe(200)
    expect(byQuery).toMatchObject({ status: 200, body: byHeader.body })
  })

  it("answers a revoked token 401 from the moment it is revoked", async () => {
    const { id, token } = await gateway.createToken()
    expect((await request("GET", "/api/v1/services", { authorization: `Bearer ${token}` })).status).toBe(200)
    await gateway.revokeToken(id)
    expectRefused(await request("GET", "/api/v1/services", { authorization: `Bearer ${token}` }), "revoked")
  })

  it("answers a token 401 from the moment it expires, though it was just used", async () => {
    const { token } = await gateway.createToken({ expiresAt: Date.now() + 300 })
    expect((await request("GET", "/api/v1/services", { authorization: `Bearer ${token}` })).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expectRefused(await request("GET", "/api/v1/services", { authorization: `Bearer ${token}` }), "expired")
  })
})

describe("the open paths", () => {
  it("answers /health without a token", async () => {
    expect(await request("GET", "/health")).toMatchObject({ status: 200, body: "{\"status\":\"ok\"}" })
  })
})

describe("POST /users/login", () => {
  const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` })

  it("answers 201 with a session token that opens the API, and logout ends it", async () => {
    const login = await request("POST", "/users/login", basic("admin", gateway.adminPassword))
    expect(login.status).toBe(201)
    const { session_token } = JSON.parse(login.body) as { session_token: string }
    const bearer = { authorization: `Bearer ${session_token}` }
    expect((await request("GET", "/api/v1/channels/getters", bearer)).status).toBe(200)
    expect((await request("POST", "/users/logout", bearer)).status).toBe(204)
    expectRefused(await request("GET", "/api/v1/channels/getters", bearer), "after logout")
    expectRefused(await request("POST", "/users/logout", bearer), "logout twice")
  })

  it("answers 401 without Basic credentials", async () => {
    expectRefused(await request("POST", "/users/login"), "no credentials")
    expectRefused(await request("POST", "/users/login", { authorization: "Basic !!!" }), "malformed")
  })

  it("answers wrong passwords 401, then 429 with Retry-After, even for the right one", async () => {
    for (let i = 0; i < 5; i++) expectRefused(await request("POST", "/users/login", basic("admin", "wrong")), `attempt ${i}`)
    const locked = await request("POST", "/users/login", basic("admin", gateway.adminPassword))
    expect(locked.status).toBe(429)
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0)
    expect(typeof JSON.parse(locked.body)).toBe("string")
  })
})

describe("POST /users/login against many attempts at once", () => {
  const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` })
  // scrypt runs on libuv's four threads: a burst takes a while on two shared cores.
  /** From 127.0.0.1 unless `from` names another loopback address (another client). */
  const login = (on: GatewayOverHttp, user: string, password: string, from = "127.0.0.1") =>
    send(`${on.baseUrl}/users/login`, { method: "POST", headers: basic(user, password), timeoutMs: 30_000, localAddress: from })
  const statuses = (replies: ReadonlyArray<HttpReply>) => replies.map((r) => r.status).sort()
  const expectLocked = (reply: HttpReply) => {
    expect({ status: reply.status, type: typeof JSON.parse(reply.body) }).toEqual({ status: 429, type: "string" })
    expect(Number(reply.headers["retry-after"])).toBeGreaterThan(0)
    expect(Number(reply.headers["retry-after"])).toBeLessThanOrEqual(300)
  }
  /** Each test counts attempts from zero: on a gateway of its own, stopped after. */
  const onFreshGateway = async (test: (fresh: GatewayOverHttp) => Promise<void>) => {
    const fresh = await startGateway(home)
    try {
      await test(fresh)
    } finally {
      await fresh.close()
    }
  }

  it("answers a parallel burst of wrong passwords for one user as it answers them one by one: 5 × 401, the rest 429", () =>
    onFreshGateway(async (fresh) => {
      const replies = await Promise.all(Array.from({ length: 30 }, () => login(fresh, "admin", "wrong")))
      expect(statuses(replies)).toEqual([...Array<number>(5).fill(401), ...Array<number>(25).fill(429)])
      for (const reply of replies.filter((r) => r.status === 429)) expectLocked(reply)
      expectLocked(await login(fresh, "admin", fresh.adminPassword))
    }), 60_000)

  it("locks out an address after 20 failures, whatever the usernames, the right password of another user included", () =>
    onFreshGateway(async (fresh) => {
      for (let i = 0; i < 20; i++) expectRefused(await login(fresh, `nobody${i}`, "wrong"), `attempt ${i}`)
      expectLocked(await login(fresh, "admin", fresh.adminPassword))
      expectLocked(await login(fresh, "nobody99", "wrong"))
    }), 60_000)

  it("answers a parallel burst from one address over many usernames: 20 × 401, the rest 429", () =>
    onFreshGateway(async (fresh) => {
      const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => login(fresh, `nobody${i}`, "wrong")))
      expect(statuses(replies)).toEqual([...Array<number>(20).fill(401), ...Array<number>(10).fill(429)])
      for (const reply of replies.filter((r) => r.status === 429)) expectLocked(reply)
      expectLocked(await login(fresh, "admin", fresh.adminPassword))
    }), 60_000)

  it("logs in every one of a parallel burst of right passwords", () =>
    onFreshGateway(async (fresh) => {
      const replies = await Promise.all(Array.from({ length: 8 }, () => login(fresh, "admin", fresh.adminPassword)))
      expect(statuses(replies)).toEqual(Array<number>(8).fill(201))
    }), 60_000)

  it("judges each attempt of a parallel burst on its own while fewer than 5 fail: 8 right and 4 wrong get 8 × 201, 4 × 401", () =>
    onFreshGateway(async (fresh) => {
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, i) => login(fresh, "admin", i % 3 === 1 ? "wrong" : fresh.adminPassword))
      )
      expect(statuses(replies)).toEqual([...Array<number>(8).fill(201), ...Array<number>(4).fill(401)])
    }), 60_000)

  it("locks a user out of the address its failures came from, not out of another", () =>
    onFreshGateway(async (fresh) => {
      for (let i = 0; i < 5; i++) expectRefused(await login(fresh, "admin", "wrong", "127.0.0.2"), `attempt ${i}`)
      expectLocked(await login(fresh, "admin", fresh.adminPassword, "127.0.0.2"))
      expect((await login(fresh, "admin", fresh.adminPassword, "127.0.0.3")).status).toBe(201)
      // Another user at the locked address is not locked either: it is one pair, and the address has room.
      expectRefused(await login(fresh, "nobody", "wrong", "127.0.0.2"), "another user there")
    }), 60_000)

  it("still logs in the right password sent among wrong ones, while the user is under the limit", () =>
    onFreshGateway(async (fresh) => {
      const replies = await Promise.all([
        ...Array.from({ length: 4 }, () => login(fresh, "admin", "wrong")),
        login(fresh, "admin", fresh.adminPassword)
      ])
      expect(replies.map((r) => r.status)).toEqual([401, 401, 401, 401, 201])
      // The success cleared the user's failures: five more wrong ones are needed to lock it out.
      for (let i = 0; i < 4; i++) expectRefused(await login(fresh, "admin", "wrong"), `after success ${i}`)
      expect((await login(fresh, "admin", fresh.adminPassword)).status).toBe(201)
    }), 60_000)
})

describe("the user of a call", () => {
  it("reaches the adapter in vocabulary B", async () => {
    const write = await gateway.call("PUT", "/api/v1/channels/set", { select: { id: "setter:porch-light-on@b" }, value: { OnOff: "On" } })
    expect(write.status).toBe(200)
    expect(await gateway.lastWriter("setter:porch-light-on@b")).toEqual(Option.some({ name: "admin" }))
  })

  it("does not reach the adapter in vocabulary A", async () => {
    const body = [[{ id: { Exactly: "setter:porch-light-on@b" } }], { OnOff: "Off" }]
    expect((await gateway.call("POST", "/api/v1/channels/value", body)).status).toBe(200)
    expect(await gateway.lastWriter("setter:porch-light-on@b")).toEqual(Option.none())
  })
})

describe("every response", () => {
  it("carries the security headers, errors included", async () => {
    for (const reply of [await request("GET", "/health"), await request("GET", "/nope"), await request("GET", "/api/v1/services")]) {
      expect(reply.headers).toMatchObject({
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store"
      })
    }
  })
})

describe("the rights of a scoped token", () => {
  const hall = (rights: ReadonlyArray<"read" | "write" | "watch" | "tag">) =>
    gateway.createToken({ scope: decodedScope({ channels: { service: "service:porch-light@b" }, rights }) })
  const as = (token: string) => ({ authorization: `Bearer ${token}` })
  const write = JSON.stringify({ select: { id: "setter:porch-light-on@b" }, value: { OnOff: "On" } })
  const tag = JSON.stringify({ services: { id: "service:porch-light@b" }, tags: ["mine"] })
  const channelTag = JSON.stringify({ set: { id: "getter:porch-light-on@b" }, tags: ["mine"] })

  it("refuses with 403 each operation whose right it lacks, and allows the others", async () => {
    const { token: readOnly } = await hall(["read"])
    expect((await request("GET", "/api/v1/channels/get", as(readOnly))).status).toBe(200)
    expect((await request("GET", "/api/v1/nodes", as(readOnly))).status).toBe(200)
    for (const [method, path, body] of [
      ["PUT", "/api/v1/channels/set", write],
      ["POST", "/api/v1/services/tag", tag],
      ["POST", "/api/v1/channels/tag", channelTag],
      ["POST", "/api/v1/channels/value", JSON.stringify([[{ id: { Exactly: "setter:porch-light-on@b" } }], { OnOff: "On" }])]
    ] as const) {
      const reply = await request(method, path, as(readOnly), body)
      expect({ path, status: reply.status, body: JSON.parse(reply.body) }).toEqual({ path, status: 403, body: expect.stringContaining("does not grant") })
    }
    const { token: writeOnly } = await hall(["write", "tag"])
    expect((await request("GET", "/api/v1/services", as(writeOnly))).status).toBe(403)
    expect((await request("PUT", "/api/v1/channels/set", as(writeOnly), write)).status).toBe(200)
    expect((await request("POST", "/api/v1/services/tag", as(writeOnly), tag)).status).toBe(200)
  })

  it("lists only the channels in scope, and answers an id outside it as absent", async () => {
    const { token } = await hall(["read"])
    const getters = JSON.parse((await request("GET", "/api/v1/channels/getters", as(token))).body) as ReadonlyArray<{ id: string }>
    expect(getters.map((g) => g.id)).toEqual(["getter:porch-light-on@b"])
    const outside = await request("GET", "/api/v1/channels/get", as(token), JSON.stringify({ id: "getter:front-door-lock@b" }))
    expect(JSON.parse(outside.body)).toEqual({ "getter:front-door-lock@b": { Error: { NoSuchGetter: "getter:front-door-lock@b" } } })
  })
})
