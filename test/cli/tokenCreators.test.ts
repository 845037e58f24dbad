import { describe, expect, it } from "vitest"
import { maxLiveApiTokens } from "../../src/auth/TokenQuota.ts"
import { closedWithin, openWatch } from "../support/openWatch.ts"
import { watchedGatewayWithCli } from "../support/watchedGatewayCli.ts"
import { lamp } from "../http/watch/watchHome.ts"

/**
 * `gateway tokens` beside a running gateway (issue 34, items 1 and 3): it is not bound by what a user
 * may create over HTTP, it lists each token's creator, and its `revoke` revokes what the token created.
 */

const { gateway, cli } = watchedGatewayWithCli()

const create = async (creator: string) => {
  const { status, json } = await gateway().call("POST", "/api/v1/tokens", {}, { authorization: `Bearer ${creator}` })
  expect(status).toBe(201)
  return json as { readonly id: number; readonly token: string }
}

/** The rows of `tokens list`, by id, as column name to value. */
const listed = async (): Promise<ReadonlyMap<string, Readonly<Record<string, string>>>> => {
  const [header = "", ...rows] = (await cli("tokens", "list")).trim().split("\n")
  const columns = header.split("\t")
  return new Map(rows.map((row) => {
    const cells = row.split("\t")
    return [cells[0] ?? "", Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ""]))]
  }))
}

describe("gateway tokens", () => {
  it(`create is not bound: it makes a token for a user who holds ${maxLiveApiTokens} live ones`, async () => {
    const { token } = await gateway().createToken({ user: "ivy" })
    for (let i = 1; i < maxLiveApiTokens; i++) await gateway().createToken({ user: "ivy" })
    expect((await gateway().call("POST", "/api/v1/tokens", {}, { authorization: `Bearer ${token}` })).status).toBe(429)
    const made = (await cli("tokens", "create", "--user", "ivy")).trim()
    expect((await gateway().call("GET", "/api/v1/services", undefined, { authorization: `Bearer ${made}` })).status).toBe(200)
  })

  it("list shows each token's creator, - for none", async () => {
    const parent = await create(gateway().token)
    const child = await create(parent.token)
    const rows = await listed()
    expect([rows.get(String(parent.id))?.["created by"], rows.get(String(child.id))?.["created by"], rows.get(String(gateway().tokenId))?.["created by"]])
      .toEqual([String(gateway().tokenId), String(parent.id), "-"])
  })

  it("revoke revokes the tokens it created, transitively, and says which; their watch sockets close", async () => {
    const parent = await create(gateway().token)
    const child = await create(parent.token)
    const grandchild = await create(child.token)
    const watching = await openWatch({ baseUrl: gateway().baseUrl, token: grandchild.token })
    watching.send([{ select: { id: lamp } }])
    expect(await watching.next()).toEqual({ GetterAdded: lamp })
    expect(await cli("tokens", "revoke", String(parent.id)))
      .toBe(`token ${parent.id} revoked, and the tokens it created: ${child.id}, ${grandchild.id}\n`)
    expect(await closedWithin(watching)).toEqual({ code: 1008, reason: "the token was revoked or expired" })
    const rows = await listed()
    expect([parent.id, child.id, grandchild.id].map((id) => rows.get(String(id))?.status)).toEqual(["revoked", "revoked", "revoked"])
  })
})
