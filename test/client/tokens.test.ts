import { readFileSync } from "node:fs"
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChannelId, channelSelector, exactly } from "../../src/client/index.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { send } from "../support/httpRequest.ts"
import { insertTokens } from "../support/manyTokens.ts"
import { clientOf } from "./clients.ts"

/**
 * The client's token operations (`/api/v1/tokens`, docs/auth.md): a token created within the client's
 * reach is listed, works with its own scope only, and is refused once revoked; a scope beyond the
 * client's own is Forbidden. The same in both vocabularies: tokens have no vocabulary.
 */

const home = JSON.parse(readFileSync(new URL("../../docs/examples/home.json", import.meta.url), "utf8"))

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(home)
})
afterAll(() => gateway.close())

describe.each(["a", "b"] as const)("the client in vocabulary %s", (vocabulary) => {
  it("creates a scoped token, lists it, and revokes it; the token reaches only its scope, then nothing", async () => {
    const client = clientOf(gateway, vocabulary)
    try {
      const getters = await client.getters()
      const [one] = getters
      expect(getters.length).toBeGreaterThan(1)
      if (one === undefined) return
      // A scope names channels as /channels/tag does: by id, without a mechanism.
      const scope = { channels: [channelSelector({ id: exactly(ChannelId.make(one.id)) })], rights: ["read" as const] }
      const created = await client.createToken({ label: `only ${one.id}`, scope: Option.some(scope), expiresAt: Option.none() })
      expect(created.token.label).toBe(`only ${one.id}`)
      expect((await client.tokens()).some((token) => token.id === created.token.id && token.status === "active")).toBe(true)

      const listed = await send(`${gateway.baseUrl}/api/v1/channels/getters`, { headers: { authorization: `Bearer ${created.secret}` } })
      expect((JSON.parse(listed.body) as ReadonlyArray<{ readonly id: string }>).map((c) => c.id)).toEqual([one.id])

      await client.revokeToken(created.token.id)
      expect((await send(`${gateway.baseUrl}/api/v1/channels/getters`, { headers: { authorization: `Bearer ${created.secret}` } })).status).toBe(401)
      expect((await client.tokens()).find((token) => token.id === created.token.id)?.status).toBe("revoked")
    } finally {
      await client.close()
    }
  })
})

describe("the client's listing of tokens", () => {
  it("brings every token of its user, page after page (250 of them, the gateway's pages holding 100)", async () => {
    const own = await gateway.createToken({ user: "many" })
    const ids = [own.id, ...(await insertTokens(gateway.dataDir, "many", 249))]
    const client = clientOf({ baseUrl: gateway.baseUrl, token: own.token }, "b")
    try {
      expect((await client.tokens()).map((token) => token.id)).toEqual(ids)
    } finally {
      await client.close()
    }
  })
})
