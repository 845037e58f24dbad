import { describe, expect, it } from "vitest"
import { send } from "../support/httpRequest.ts"
import { closedWithin, openWatch, type WatchClient } from "../support/openWatch.ts"
import { watchedGatewayWithCli } from "../support/watchedGatewayCli.ts"
import { lamp } from "../http/watch/watchHome.ts"

/**
 * The command line ends tokens beside a running gateway, in another process: the watch sockets opened
 * with them close (docs/auth.md, "The command line"), without waiting for the next keep-alive ping. The
 * gateway hears of another connection's writes the same way whichever process holds it, so `tokens
 * revoke` runs as a process, and the other commands on a connection of their own in this one.
 */

const { gateway, cli, cliProcess } = watchedGatewayWithCli()

const watchLamp = async (token: string): Promise<WatchClient> => {
  const client = await openWatch({ baseUrl: gateway().baseUrl, token })
  client.send({ select: { id: lamp } })
  expect(await client.next()).toEqual({ GetterAdded: lamp })
  return client
}

const tokenEnded = { code: 1008, reason: "the token was revoked or expired" }

describe("a watch socket whose token the command line ends", () => {
  it("closes with 1008 after `tokens revoke`", async () => {
    const { id, token } = await gateway().createToken()
    const client = await watchLamp(token)
    await cliProcess("tokens", "revoke", String(id))
    expect(await closedWithin(client)).toEqual(tokenEnded)
  })

  it("closes with 1008 after `users passwd` ends the session it was opened with", async () => {
    const password = /^password: (\S+)$/m.exec(await cli("users", "add", "bob"))?.[1] ?? ""
    const login = await send(`${gateway().baseUrl}/users/login`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`bob:${password}`).toString("base64")}` }
    })
    expect(login.status).toBe(201)
    const { session_token: token } = JSON.parse(login.body) as { readonly session_token: string }
    const client = await watchLamp(token)
    await cli("users", "passwd", "bob")
    expect(await closedWithin(client)).toEqual(tokenEnded)
  })

  it("closes with 1008 after `users remove` removes its user", async () => {
    await cli("users", "add", "carol")
    const token = (await cli("tokens", "create", "--user", "carol")).trim()
    const client = await watchLamp(token)
    await cli("users", "remove", "carol")
    expect(await closedWithin(client)).toEqual(tokenEnded)
  })
})
