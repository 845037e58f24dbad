import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dayMs } from "../../../src/auth/Tokens.ts"
import { callAs, type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { closedWithin, openWatch } from "../../support/openWatch.ts"
import { lamp, temperature, watchHome } from "../watch/watchHome.ts"

/** Tokens over HTTP (issue 23, item 3; docs/auth.md, docs/reference.md §8): list, create and revoke the caller's tokens. */

// The database is looked up again only every hour here: what closes a revoked token's sockets cannot be that.
let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(watchHome, { tokenRecheckMs: 3_600_000 })
})
afterAll(() => gateway.close())

/** One request made with `token`. */
const as = (token: string, method: string, path: string, body?: unknown) => callAs(gateway, token, method, path, body)

interface CreatedToken {
  readonly id: number
  readonly token: string
  readonly scope: unknown
  readonly expires_at: string | null
}

/** A token created over HTTP with `creator`, expecting 201. */
const create = async (creator: string, body: unknown): Promise<CreatedToken> => {
  const answer = await as(creator, "POST", "/api/v1/tokens", body)
  expect(answer.status).toBe(201)
  return answer.json as CreatedToken
}

const listed = async (token: string): Promise<ReadonlyArray<Record<string, unknown>>> => {
  const answer = await as(token, "GET", "/api/v1/tokens")
  expect(answer.status).toBe(200)
  return answer.json as ReadonlyArray<Record<string, unknown>>
}

const idsOf = async (token: string) => (await listed(token)).map((t) => t.id)

const lampScope = { channels: { service: "service:lamp@w" }, rights: ["read", "watch", "tokens"] }

describe("list_tokens", () => {
  it("lists the caller's tokens with what they are, never a secret", async () => {
    const { token } = await create(gateway.token, { label: "panel", scope: lampScope })
    const all = await listed(gateway.token)
    const shown = all.find((t) => t.label === "panel")
    expect(shown).toEqual({
      id: expect.any(Number),
      kind: "api",
      label: "panel",
      status: "active",
      scope: { channels: [{ service: "service:lamp@w" }], rights: ["read", "watch", "tokens"] },
      created_at: expect.any(String),
      expires_at: expect.any(String),
      last_used_at: null,
      created_by: gateway.tokenId,
      current: false
    })
    expect(JSON.stringify(all)).not.toContain(token)
    expect(JSON.stringify(all)).not.toContain(gateway.token)
  })

  it("marks the token of the request", async () => {
    const all = await listed(gateway.token)
    expect(all.filter((t) => t.current === true).map((t) => t.id)).toEqual([gateway.tokenId])
  })

  it("shows a user none of another user's tokens", async () => {
    const other = await gateway.createToken({ user: "bob" })
    const mine = await idsOf(gateway.token)
    expect(mine).not.toContain(other.id)
    expect(await idsOf(other.token)).toEqual([other.id])
  })

  it("shows a scoped token only the tokens within its scope: itself and narrower ones, not those that reach more", async () => {
    const parent = await create(gateway.token, { scope: lampScope })
    const child = await create(parent.token, { scope: { channels: { service: "service:lamp@w", id: lamp }, rights: ["read", "tokens"] } })
    const wider = await create(gateway.token, { scope: { channels: {}, rights: ["read"] } })
    const seen = await idsOf(parent.token)
    expect(seen).toContain(parent.id)
    expect(seen).toContain(child.id)
    expect(seen).not.toContain(wider.id)
    expect(await idsOf(child.token)).toEqual([child.id])
  })

  it("marks revoked and expired tokens", async () => {
    const revoked = await create(gateway.token, { label: "old" })
    expect((await as(gateway.token, "POST", "/api/v1/tokens/revoke", { id: revoked.id })).status).toBe(204)
    const expired = await gateway.createToken({ expiresAt: Date.now() - 1 })
    const all = await listed(gateway.token)
    expect(all.find((t) => t.id === revoked.id)?.status).toBe("revoked")
    expect(all.find((t) => t.id === expired.id)?.status).toBe("expired")
  })
})

describe("create_token", () => {
  it("answers 201 with the secret once, a token that works within its scope", async () => {
    const created = await create(gateway.token, { label: "lamp only", scope: lampScope })
    expect(created.token).toMatch(/^gw_[A-Za-z0-9_-]{43}$/)
    const getters = await as(created.token, "GET", "/api/v1/channels/getters")
    expect((getters.json as ReadonlyArray<{ id: string }>).map((c) => c.id)).toEqual([lamp])
    expect((await as(created.token, "PUT", "/api/v1/channels/set", { select: { id: "setter:lamp@w" }, value: { OnOff: "On" } })).status)
      .toBe(403)
  })

  it("creates an unscoped token for `{}`, expiring in 90 days", async () => {
    const before = Date.now()
    const created = await create(gateway.token, {})
    expect(created.scope).toBeNull()
    const expires = Date.parse(created.expires_at ?? "")
    expect(expires).toBeGreaterThanOrEqual(before + 90 * dayMs - 1_000)
    expect(expires).toBeLessThanOrEqual(Date.now() + 90 * dayMs)
  })

  it("takes an expiry, or none", async () => {
    const at = "2030-01-02T03:04:05.000+00:00"
    expect((await create(gateway.token, { expires_at: at })).expires_at).toBe(at)
    expect((await create(gateway.token, { expires_at: null })).expires_at).toBeNull()
  })

  it("caps a default expiry at the creating token's own, and refuses a later one with 403", async () => {
    const until = Date.now() + 3_600_000
    const parent = await gateway.createToken({ expiresAt: until })
    expect(Date.parse((await create(parent.token, {})).expires_at ?? "")).toBe(until)
    const own = new Date(until).toISOString()
    for (const expires_at of [null, new Date(until + 1_000).toISOString()]) {
      expect(await as(parent.token, "POST", "/api/v1/tokens", { expires_at })).toEqual({
        status: 403,
        json: `this token expires at ${own}: a token it creates must expire no later`
      })
    }
  })

  it("refuses with 403, in words, a scoped token's request for a token that reaches or may do more", async () => {
    const parent = await create(gateway.token, { scope: lampScope })
    const before = await idsOf(gateway.token)
    const refused = async (body: unknown) => {
      const answer = await as(parent.token, "POST", "/api/v1/tokens", body)
      expect(answer.status).toBe(403)
      return answer.json
    }
    expect(await refused({})).toBe("this token has a scope: a token it creates needs a scope within it")
    expect(await refused({ scope: { channels: { service: "service:lamp@w" }, rights: ["read", "write", "tokens"] } }))
      .toBe("this token does not grant the \"write\" right, so a token it creates may not have it")
    const beyond = await refused({ scope: { channels: [{ service: "service:lamp@w", id: lamp }, { id: temperature }], rights: ["read"] } })
    expect(beyond).toMatch(/^scope\.channels\[1\] is not within this token's scope/)
    // Nothing of what lies outside: not the channel asked for, nor the other channels of the home.
    expect(beyond).not.toMatch(/@w|living/)
    expect(await idsOf(gateway.token)).toEqual(before)
  })

  it("refuses a malformed body with 400, naming the place", async () => {
    const tooMany = { channels: Array.from({ length: 33 }, (_, i) => ({ tags: [`t${i}`] })), rights: ["read"] }
    for (const [body, message] of [
      [undefined, "body: required, a JSON document"],
      [{ scope: { channels: {}, rights: ["fly"] } }, "body.scope.rights[0]: expected one of \"read\", \"write\", \"watch\", \"tag\", \"metrics\", \"tokens\", got \"fly\""],
      [{ labels: "x" }, "body: unknown field \"labels\""],
      [{ label: "x".repeat(257) }, "body.label: must be at most 256 characters"],
      [{ label: "panel\n\u001b[2J" }, "body.label: must not contain control characters"],
      [{ expires_at: "tomorrow" }, "body.expires_at: expected an RFC 3339 timestamp"],
      [{ expires_at: "2001-01-01T00:00:00.000+00:00" }, "body.expires_at: the expiry must be later than now"],
      [{ scope: tooMany }, "body.scope.channels: 33 selectors, at most 32"]
    ] as const) {
      const answer = await as(gateway.token, "POST", "/api/v1/tokens", body)
      expect({ body, status: answer.status, json: answer.json }).toEqual({ body, status: 400, json: expect.stringContaining(message) })
    }
  })
})

describe("revoke_token", () => {
  it("revokes a token: it is refused at once, and revoking it again is no error", async () => {
    const created = await create(gateway.token, { label: "short-lived" })
    expect((await as(created.token, "GET", "/api/v1/services")).status).toBe(200)
    expect((await as(gateway.token, "POST", "/api/v1/tokens/revoke", { id: created.id })).status).toBe(204)
    expect((await as(created.token, "GET", "/api/v1/services")).status).toBe(401)
    expect((await as(gateway.token, "POST", "/api/v1/tokens/revoke", { id: created.id })).status).toBe(204)
  })

  it("lets a token revoke itself", async () => {
    const created = await create(gateway.token, {})
    expect((await as(created.token, "POST", "/api/v1/tokens/revoke", { id: created.id })).status).toBe(204)
    expect((await as(created.token, "GET", "/api/v1/tokens")).status).toBe(401)
  })

  it("answers an unknown id and another user's alike, 400, and revokes nothing", async () => {
    const other = await gateway.createToken({ user: "carol" })
    const unknown = 1_000_000
    const revoke = (id: number) => as(gateway.token, "POST", "/api/v1/tokens/revoke", { id })
    const answers = [await revoke(other.id), await revoke(unknown)]
    expect(answers).toEqual([
      { status: 400, json: `body.id: no token ${other.id} among those this token manages` },
      { status: 400, json: `body.id: no token ${unknown} among those this token manages` }
    ])
    expect((await as(other.token, "GET", "/api/v1/services")).status).toBe(200)
  })

  it("does not let a scoped token revoke a token that reaches more than itself", async () => {
    const parent = await create(gateway.token, { scope: lampScope })
    const answer = await as(parent.token, "POST", "/api/v1/tokens/revoke", { id: gateway.tokenId })
    expect(answer).toEqual({ status: 400, json: `body.id: no token ${gateway.tokenId} among those this token manages` })
    expect((await gateway.call("GET", "/api/v1/services")).status).toBe(200)
  })

  it("refuses a malformed body with 400", async () => {
    expect(await as(gateway.token, "POST", "/api/v1/tokens/revoke", { id: "7" })).toEqual({
      status: 400,
      json: expect.stringContaining("body.id: expected")
    })
  })

  it("closes the revoked token's watch sockets with 1008 at once, and only its own", async () => {
    const created = await create(gateway.token, { scope: lampScope })
    const watching = await openWatch({ baseUrl: gateway.baseUrl, token: created.token })
    watching.send([{ select: { id: lamp } }])
    expect(await watching.next()).toEqual({ GetterAdded: lamp })
    const other = await openWatch({ baseUrl: gateway.baseUrl, token: gateway.token })
    other.send([{ select: { id: lamp } }])
    expect(await other.next()).toEqual({ GetterAdded: lamp })
    expect((await as(gateway.token, "POST", "/api/v1/tokens/revoke", { id: created.id })).status).toBe(204)
    expect(await closedWithin(watching)).toEqual({ code: 1008, reason: "the token was revoked or expired" })
    expect(other.socket.readyState).toBe(other.socket.OPEN)
    await other.close()
  })
})
