import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callAs, type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { closedWithin, openWatch } from "../../support/openWatch.ts"
import { lamp, watchHome } from "../watch/watchHome.ts"

/**
 * Tokens that cannot outlive their creator (issue 34, item 3; docs/auth.md#tokens-over-http): each
 * token records the token that created it, both listings show it, and revoking a token revokes what it
 * created, transitively, closing their watch sockets at once. A session's end by signing out does not.
 */

// The database is looked up again only every hour here: what closes the sockets cannot be that.
let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(watchHome, { tokenRecheckMs: 3_600_000 })
})
afterAll(() => gateway.close())

/** One request made with `token`. */
const as = (token: string, method: string, path: string, body?: unknown) => callAs(gateway, token, method, path, body)

interface Created {
  readonly id: number
  readonly token: string
  readonly created_by: number | null
}

const create = async (creator: string, body: unknown = {}): Promise<Created> => {
  const answer = await as(creator, "POST", "/api/v1/tokens", body)
  expect(answer.status).toBe(201)
  return answer.json as Created
}

const creatorsIn = async (token: string): Promise<ReadonlyMap<unknown, unknown>> => {
  const answer = await as(token, "GET", "/api/v1/tokens")
  expect(answer.status).toBe(200)
  return new Map((answer.json as ReadonlyArray<Record<string, unknown>>).map((t) => [t.id, t.created_by]))
}

const works = async (token: string) => (await as(token, "GET", "/api/v1/services")).status === 200

const lampScope = { channels: { service: "service:lamp@w" }, rights: ["read", "watch", "tokens"] }

describe("a token's creator", () => {
  it("is the token that created it over HTTP, shown when it is created and listed; none for a token made otherwise", async () => {
    const parent = await create(gateway.token, { scope: lampScope })
    const child = await create(parent.token, { scope: lampScope })
    const made = await gateway.createToken()
    expect([parent.created_by, child.created_by]).toEqual([gateway.tokenId, parent.id])
    const creators = await creatorsIn(gateway.token)
    expect([creators.get(parent.id), creators.get(child.id), creators.get(made.id), creators.get(gateway.tokenId)])
      .toEqual([gateway.tokenId, parent.id, null, null])
  })
})

describe("revoking a token", () => {
  it("revokes every token it created, down every generation, and closes their watch sockets at once; nothing else", async () => {
    const parent = await create(gateway.token, { scope: lampScope })
    const child = await create(parent.token, { scope: lampScope })
    const grandchild = await create(child.token, { scope: lampScope })
    const sibling = await create(gateway.token, { scope: lampScope })
    const watching = await openWatch({ baseUrl: gateway.baseUrl, token: grandchild.token })
    watching.send([{ select: { id: lamp } }])
    expect(await watching.next()).toEqual({ GetterAdded: lamp })
    expect((await as(gateway.token, "POST", "/api/v1/tokens/revoke", { id: parent.id })).status).toBe(204)
    expect(await closedWithin(watching, 2_000)).toEqual({ code: 1008, reason: "the token was revoked or expired" })
    expect([await works(parent.token), await works(child.token), await works(grandchild.token)]).toEqual([false, false, false])
    expect([await works(sibling.token), await works(gateway.token)]).toEqual([true, true])
    const listed = (await as(gateway.token, "GET", "/api/v1/tokens")).json as ReadonlyArray<{ readonly id: number; readonly status: string }>
    const status = new Map(listed.map((t) => [t.id, t.status]))
    expect([parent.id, child.id, grandchild.id, sibling.id].map((id) => status.get(id))).toEqual(["revoked", "revoked", "revoked", "active"])
  })

  it("by the token itself revokes what it created too", async () => {
    const parent = await create(gateway.token, { scope: lampScope })
    const child = await create(parent.token, { scope: lampScope })
    expect((await as(parent.token, "POST", "/api/v1/tokens/revoke", { id: parent.id })).status).toBe(204)
    expect(await works(child.token)).toBe(false)
  })
})

describe("signing out", () => {
  it("ends the session alone: the tokens it created keep working until their own end", async () => {
    const login = await send(`${gateway.baseUrl}/users/login`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`admin:${gateway.adminPassword}`).toString("base64")}` }
    })
    const { session_token: session } = JSON.parse(login.body) as { readonly session_token: string }
    const made = await create(session, { label: "from the dashboard" })
    expect((await as(session, "POST", "/users/logout")).status).toBe(204)
    expect([await works(session), await works(made.token)]).toEqual([false, true])
    expect(made.created_by).toEqual(expect.any(Number))
    expect((await creatorsIn(gateway.token)).get(made.id)).toEqual(made.created_by)
  })
})
