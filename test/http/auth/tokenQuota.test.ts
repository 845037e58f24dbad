import { describe, expect, it } from "vitest"
import { maxCreationsPerWindow, maxLiveApiTokens } from "../../../src/auth/TokenQuota.ts"
import { anyChannel } from "../../../src/domain/Selector.ts"
import { gatewayForSuite, type GatewayOverHttp } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { watchHome } from "../watch/watchHome.ts"

/**
 * What one token may mint over HTTP (issue 34, item 1; docs/auth.md#limits): only with the `tokens`
 * right, at most 30 a minute per user, and never past 200 live API tokens of its user, sessions not
 * counted. Each user of these tests is its own, so that their counts do not meet.
 */

const gateway = gatewayForSuite(watchHome)

const as = async (on: GatewayOverHttp, token: string, method: string, path: string, body?: unknown) => {
  const { status, json, headers } = await on.call(method, path, body, { authorization: `Bearer ${token}` })
  return { status, json, retryAfter: headers["retry-after"] }
}

const createWith = (on: GatewayOverHttp, token: string) => as(on, token, "POST", "/api/v1/tokens", {})

const login = (on: GatewayOverHttp, user: string) =>
  send(`${on.baseUrl}/users/login`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${user}:${on.adminPassword}`).toString("base64")}` }
  })

const tooMany = `this user holds ${maxLiveApiTokens} live API tokens, the most it may: revoke tokens it no longer needs to create others`

describe("the tokens right", () => {
  it("is needed to list, create and revoke tokens: a scoped token without it gets 403 on each, one with it does not", async () => {
    const without = await gateway().createToken({ scope: { channels: [anyChannel], rights: ["read", "write", "watch", "tag", "metrics"] } })
    const withIt = await gateway().createToken({ scope: { channels: [anyChannel], rights: ["read", "tokens"] } })
    const refusal = { status: 403, json: "this token does not grant the \"tokens\" right", retryAfter: undefined }
    expect(await as(gateway(), without.token, "GET", "/api/v1/tokens")).toEqual(refusal)
    expect(await createWith(gateway(), without.token)).toEqual(refusal)
    expect(await as(gateway(), without.token, "POST", "/api/v1/tokens/revoke", { id: without.id })).toEqual(refusal)
    expect((await as(gateway(), withIt.token, "GET", "/api/v1/tokens")).status).toBe(200)
    expect((await as(gateway(), withIt.token, "POST", "/api/v1/tokens", { scope: { channels: [], rights: ["tokens"] } })).status).toBe(201)
    expect((await as(gateway(), withIt.token, "POST", "/api/v1/tokens/revoke", { id: withIt.id })).status).toBe(204)
  })

  it("is not needed to sign out", async () => {
    const without = await gateway().createToken({ scope: { channels: [], rights: [] } })
    expect((await as(gateway(), without.token, "POST", "/users/logout")).status).toBe(204)
    expect((await as(gateway(), without.token, "GET", "/api/v1/services")).status).toBe(401)
  })
})

describe("live API tokens per user", () => {
  it(`stop creation at ${maxLiveApiTokens} with a 429 without Retry-After, saying to revoke; sessions do not count, nor stop signing in`, async () => {
    const { token, id } = await gateway().createToken({ user: "dora" })
    // The others through the store, as the command line makes them: it is not bound.
    for (let i = 2; i < maxLiveApiTokens; i++) await gateway().createToken({ user: "dora" })
    for (let i = 0; i < 3; i++) expect((await login(gateway(), "dora")).status).toBe(201)
    const last = await createWith(gateway(), token)
    expect(last.status).toBe(201)
    expect(await createWith(gateway(), token)).toEqual({ status: 429, json: tooMany, retryAfter: undefined })
    // Nor does the cap lock its owner out: a login still gets a session, which may revoke, and then create.
    const session = (JSON.parse((await login(gateway(), "dora")).body) as { readonly session_token: string }).session_token
    expect((await createWith(gateway(), session)).status).toBe(429)
    expect((await as(gateway(), session, "POST", "/api/v1/tokens/revoke", { id })).status).toBe(204)
    expect((await createWith(gateway(), session)).status).toBe(201)
  })

  it("are counted before each creation alone: requests sent at once pass the limit by none", async () => {
    const { token } = await gateway().createToken({ user: "hal" })
    for (let i = 11; i < maxLiveApiTokens; i++) await gateway().createToken({ user: "hal" })
    const answers = await Promise.all(Array.from({ length: 20 }, () => createWith(gateway(), token)))
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(10).fill(201), ...Array(10).fill(429)])
  })

  it("are counted per user: another user creates while one holds its limit", async () => {
    const { token } = await gateway().createToken({ user: "fred" })
    expect((await createWith(gateway(), token)).status).toBe(201)
  })
})

describe("tokens created per minute", () => {
  it(`are at most ${maxCreationsPerWindow} per user, refusals not counted: the next is a 429 with Retry-After, and another user is not held back`, async () => {
    const { token } = await gateway().createToken({ user: "erin" })
    // Refusals create nothing, and count for nothing.
    for (let i = 0; i < 5; i++) {
      expect((await as(gateway(), token, "POST", "/api/v1/tokens", { expires_at: "2001-01-01T00:00:00.000+00:00" })).status).toBe(400)
    }
    for (let i = 0; i < maxCreationsPerWindow; i++) expect((await createWith(gateway(), token)).status).toBe(201)
    const refused = await createWith(gateway(), token)
    expect(refused).toEqual({
      status: 429,
      json: expect.stringMatching(new RegExp(`^this user created ${maxCreationsPerWindow} tokens within 60 s, the most it may: try again in \\d+ s$`)),
      retryAfter: expect.stringMatching(/^\d+$/)
    })
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1)
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60)
    // Another token of the same user is held back too; another user's is not.
    const session = JSON.parse((await login(gateway(), "erin")).body) as { readonly session_token: string }
    expect((await createWith(gateway(), session.session_token)).status).toBe(429)
    expect((await createWith(gateway(), (await gateway().createToken({ user: "gus" })).token)).status).toBe(201)
  })
})

describe("tokens created per window, with a window of three seconds", () => {
  const window = 3_000
  const quick = gatewayForSuite(watchHome, { tokenCreationWindowMs: window })

  /**
   * A fresh user's token creates its limit at once, and then one more: the answers, and whether all came
   * within the window. A busy machine can take longer, and then the window may have slid before the last
   * (which proves nothing of it): a burst that took longer is tried again, by another user.
   */
  const burst = async (attempt: number) => {
    const { token } = await quick().createToken({ user: `ivy-${attempt}` })
    const started = performance.now()
    const first = await Promise.all(Array.from({ length: maxCreationsPerWindow }, () => createWith(quick(), token)))
    const refused = await createWith(quick(), token)
    return { token, first, refused, withinWindow: performance.now() - started < window }
  }

  it("let a user create again once Retry-After has passed", async () => {
    let tried = await burst(0)
    for (let attempt = 1; !tried.withinWindow; attempt++) tried = await burst(attempt)
    const { token, first, refused } = tried
    expect(first.map((a) => a.status)).toEqual(Array(maxCreationsPerWindow).fill(201))
    expect(refused.status).toBe(429)
    const wait = Number(refused.retryAfter)
    expect(wait).toBeGreaterThanOrEqual(1)
    expect(wait).toBeLessThanOrEqual(3)
    await new Promise((resolve) => setTimeout(resolve, wait * 1_000))
    expect((await createWith(quick(), token)).status).toBe(201)
  })
})
