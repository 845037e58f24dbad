import { describe, expect, it } from "vitest"
import { comparisonTokenLabel } from "../../../src/auth/TokenGrants.ts"
import { dayMs } from "../../../src/auth/Tokens.ts"
import { type GatewayOverHttp, gatewayForSuite } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { parseScrape, sample } from "../../support/prometheusText.ts"
import { home } from "../vocabularyB/homes.ts"

/**
 * The Migration page's comparison token (issue 39, item 8; docs/auth.md): a token of kind `comparison`,
 * one per user, that only a session gets, whose calls in vocabulary A take no series of
 * `gateway_vocabulary_a_calls_total`.
 */

const suite = gatewayForSuite(home)

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

const signIn = async (gateway: GatewayOverHttp): Promise<string> => {
  const basic = Buffer.from(`admin:${gateway.adminPassword}`).toString("base64")
  const { status, json } = await gateway.call("POST", "/users/login", undefined, { authorization: `Basic ${basic}` })
  expect(status).toBe(201)
  return (json as { readonly session_token: string }).session_token
}

interface ListedToken {
  readonly id: number
  readonly kind: string
  readonly label: string
  readonly status: string
  readonly created_by: number | null
  readonly expires_at: string | null
  readonly current: boolean
}

const comparisonOf = async (gateway: GatewayOverHttp, session: string) => {
  const { status, json } = await gateway.call("POST", "/api/v1/tokens/comparison", undefined, bearer(session))
  expect(status).toBe(201)
  return json as ListedToken & { readonly token: string }
}

const listed = async (gateway: GatewayOverHttp, token: string): Promise<ReadonlyArray<ListedToken>> =>
  (await gateway.call("GET", "/api/v1/tokens", undefined, bearer(token))).json as ReadonlyArray<ListedToken>

const aCallSeries = async (gateway: GatewayOverHttp): Promise<ReadonlyArray<string>> => {
  const reply = await send(`${gateway.baseUrl}/metrics`, { headers: bearer(gateway.token) })
  const family = parseScrape(reply.body).find((f) => f.name === "gateway_vocabulary_a_calls_total")
  return family?.metrics.map((metric) => metric.labels?.["token"] ?? "") ?? []
}

describe("POST /api/v1/tokens/comparison", () => {
  it("gives a session a token of kind comparison, labelled as the page's, made by the session, for a day at most", async () => {
    const gateway = suite()
    const session = await signIn(gateway)
    const before = Date.now()
    const made = await comparisonOf(gateway, session)
    const sessionId = (await listed(gateway, session)).find((token) => token.current)?.id
    expect({ kind: made.kind, label: made.label, status: made.status, createdBy: made.created_by })
      .toEqual({ kind: "comparison", label: comparisonTokenLabel, status: "active", createdBy: sessionId })
    const expiresAt = Date.parse(made.expires_at ?? "")
    expect(expiresAt).toBeGreaterThanOrEqual(before + dayMs - 1_000)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + dayMs)
    expect((await gateway.call("GET", "/api/v1/services", undefined, bearer(made.token))).status).toBe(200)
  })

  it("keeps one per user: a new one revokes the last", async () => {
    const gateway = suite()
    const session = await signIn(gateway)
    const first = await comparisonOf(gateway, session)
    const second = await comparisonOf(gateway, await signIn(gateway))
    const live = (await listed(gateway, session)).filter((token) => token.kind === "comparison" && token.status === "active")
    expect(live.map((token) => token.id)).toEqual([second.id])
    expect((await gateway.call("GET", "/api/v1/services", undefined, bearer(first.token))).status).toBe(401)
  })

  it("ends with the session that made it: after a sign-out it is refused, and another session's is not touched", async () => {
    const gateway = suite()
    const leaving = await signIn(gateway)
    const made = await comparisonOf(gateway, leaving)
    expect((await gateway.call("POST", "/users/logout", undefined, bearer(leaving))).status).toBe(204)
    // The tab forgets it, but whoever copied it from the tab's storage must not keep a day of access.
    expect((await gateway.call("GET", "/api/v1/services", undefined, bearer(made.token))).status).toBe(401)
    const staying = await signIn(gateway)
    const kept = await comparisonOf(gateway, staying)
    const other = await signIn(gateway)
    expect((await gateway.call("POST", "/users/logout", undefined, bearer(other))).status).toBe(204)
    expect((await gateway.call("GET", "/api/v1/services", undefined, bearer(kept.token))).status).toBe(200)
  })

  it("refuses a token that is not a session with 403, so that a client's API token cannot hide its calls", async () => {
    const gateway = suite()
    const { status, json } = await gateway.call("POST", "/api/v1/tokens/comparison")
    expect({ status, json }).toEqual({ status: 403, json: "only a session (a sign-in) gets a comparison token" })
  })
})

describe("vocabulary A's calls by token", () => {
  it("leave out the comparison token's calls: no series, whereas the session's own call makes one", async () => {
    const gateway = suite()
    const session = await signIn(gateway)
    const comparison = await comparisonOf(gateway, session)
    expect((await gateway.call("GET", "/api/v1/nodes", undefined, bearer(comparison.token))).status).toBe(200)
    expect(await aCallSeries(gateway)).not.toContain(String(comparison.id))
    const sessionId = comparison.created_by
    expect((await gateway.call("GET", "/api/v1/nodes", undefined, bearer(session))).status).toBe(200)
    const reply = await send(`${gateway.baseUrl}/metrics`, { headers: bearer(gateway.token) })
    expect(sample(parseScrape(reply.body), "gateway_vocabulary_a_calls_total", { token: String(sessionId) })).toBe(1)
  })
})
