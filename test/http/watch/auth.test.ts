import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WebSocket } from "ws"
import { watchProtocol } from "../../../src/api/Watching.ts"
import { maxWatchSocketsPerToken, maxWatchSocketsPerUser } from "../../../src/auth/LiveSockets.ts"
import { channelSelector, ChannelId, exactly } from "../../../src/domain/index.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { closedWithin, openWatch, type WatchClient } from "../../support/openWatch.ts"
import { lamp, on, temperature, watchHome, writeB } from "./watchHome.ts"

/** The watch socket behind a token (docs/reference.md §8): refused before the upgrade, and narrowed to the token's scope. */

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(watchHome)
})
afterAll(() => gateway.close())

/**
 * What an upgrade is answered: the socket opened, with the `Sec-WebSocket-Protocol` header of the server's
 * 101 as sent (absent: ""), or the refusal's status and body.
 */
type UpgradeAnswer = { readonly open: string } | { readonly status: number; readonly body: string }

const upgrade = (query: string, headers: Readonly<Record<string, string>> = {}, protocols: ReadonlyArray<string> = []) =>
  new Promise<UpgradeAnswer>((resolve, reject) => {
    const socket = new WebSocket(`${gateway.baseUrl.replace(/^http/, "ws")}/api/v1/channels/watch${query}`, [...protocols], { headers })
    let answered = ""
    socket.once("upgrade", (response) => {
      answered = String(response.headers["sec-websocket-protocol"] ?? "")
    })
    socket.once("open", () => {
      socket.close()
      resolve({ open: answered })
    })
    socket.once("unexpected-response", (_request, response) => {
      let body = ""
      response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk))
      response.once("end", () => {
        resolve({ status: response.statusCode ?? 0, body })
        socket.terminate()
      })
    })
    socket.once("error", (error) => {
      if (!error.message.includes("Unexpected server response")) reject(error)
    })
  })

/** The HTTP status a refused upgrade answers (or "open" if the socket opened). */
const upgradeStatus = async (query: string, headers: Readonly<Record<string, string>> = {}) => {
  const answer = await upgrade(query, headers)
  return "open" in answer ? "open" : answer.status
}

/** A socket opened with `token`, watching the lamp, its first event read. */
const watchLamp = async (on: GatewayOverHttp, token: string) => {
  const client = await openWatch({ baseUrl: on.baseUrl, token })
  client.send([{ select: { id: lamp } }])
  expect(await client.next()).toEqual({ GetterAdded: lamp })
  return client
}

const tokenEnded = { code: 1008, reason: "the token was revoked or expired" }

describe("the watch socket behind a token", () => {
  it("refuses the upgrade without a token, or with a bad one, with 401", async () => {
    expect(await upgradeStatus("")).toBe(401)
    expect(await upgradeStatus("", { authorization: "Bearer gw_not-a-token" })).toBe(401)
  })

  it("opens with the token in ?auth=, as browsers must send it", async () => {
    expect(await upgradeStatus(`?auth=${gateway.token}`)).toBe("open")
  })

  it(`opens with the token offered as the subprotocol bearer.<token> beside ${watchProtocol}, and answers ${watchProtocol} alone`, async () => {
    expect(await upgrade("", {}, [watchProtocol, `bearer.${gateway.token}`])).toEqual({ open: watchProtocol })
    expect(await upgrade("", {}, [`bearer.${gateway.token}`, watchProtocol])).toEqual({ open: watchProtocol })
    expect(await upgrade("", { authorization: `Bearer ${gateway.token}` }, [watchProtocol])).toEqual({ open: watchProtocol })
  })

  it("refuses a token offered as a subprotocol before the upgrade as it refuses the header's: 401 for a bad one, 403 without the right", async () => {
    expect(await upgrade("", {}, [watchProtocol, "bearer.gw_not-a-token"])).toEqual({
      status: 401,
      body: JSON.stringify("the token is unknown, expired or revoked")
    })
    const { token } = await gateway.createToken({ scope: { channels: [channelSelector({})], rights: ["read"] } })
    expect(await upgrade("", {}, [watchProtocol, `bearer.${token}`])).toEqual({
      status: 403,
      body: JSON.stringify("this token does not grant the \"watch\" right")
    })
  })

  it(`refuses with 400 before the upgrade a request that offers subprotocols, ${watchProtocol} not among them`, async () => {
    const refusal = { status: 400, body: JSON.stringify(`Sec-WebSocket-Protocol: the watch socket speaks "${watchProtocol}", which the request does not offer`) }
    expect(await upgrade("", {}, [`bearer.${gateway.token}`])).toEqual(refusal)
    expect(await upgrade("", { authorization: `Bearer ${gateway.token}` }, ["home-gateway.v2"])).toEqual(refusal)
  })

  it("refuses with 403 a token without the watch right, on the upgrade and on a plain GET (not 426: a browser's client asks so)", async () => {
    const { token } = await gateway.createToken({ scope: { channels: [channelSelector({})], rights: ["read"] } })
    expect(await upgradeStatus("", { authorization: `Bearer ${token}` })).toBe(403)
    const plain = await send(`${gateway.baseUrl}/api/v1/channels/watch`, { headers: { authorization: `Bearer ${token}` } })
    expect({ status: plain.status, body: JSON.parse(plain.body) }).toEqual({ status: 403, body: "this token does not grant the \"watch\" right" })
    const allowed = await send(`${gateway.baseUrl}/api/v1/channels/watch`, { headers: { authorization: `Bearer ${gateway.token}` } })
    expect(allowed.status).toBe(426)
  })

  it("shows a scoped token only the channels of its scope, however wide its registration", async () => {
    const scope = { channels: [channelSelector({ id: exactly(ChannelId.make(lamp)) })], rights: ["watch" as const] }
    const { token } = await gateway.createToken({ scope })
    const client = await openWatch({ baseUrl: gateway.baseUrl, token })
    client.send([{ select: [{}], range: null }])
    expect(await client.next()).toEqual({ GetterAdded: lamp })
    await writeB(gateway.call, temperature, { Temperature: { C: 30 } })
    await writeB(gateway.call, lamp, on)
    expect(await client.next()).toEqual({ Value: { from: lamp, value: on } })
    await client.close()
  })

  it(`lets one token hold ${maxWatchSocketsPerToken} sockets at once, refuses one more with 429, and counts a closed one out`, async () => {
    const { token } = await gateway.createToken()
    const clients: Array<WatchClient> = []
    for (let i = 0; i < maxWatchSocketsPerToken; i++) clients.push(await openWatch({ baseUrl: gateway.baseUrl, token }))
    expect(await upgradeStatus("", { authorization: `Bearer ${token}` })).toBe(429)
    // Another token is not affected.
    expect(await upgradeStatus("", { authorization: `Bearer ${gateway.token}` })).toBe("open")
    await clients.pop()?.close()
    let status: number | "open" = 429
    for (let attempt = 0; attempt < 50 && status !== "open"; attempt++) {
      status = await upgradeStatus("", { authorization: `Bearer ${token}` })
      if (status !== "open") await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(status).toBe("open")
    await Promise.all(clients.map((client) => client.close()))
  })

  it(`lets one user's tokens hold ${maxWatchSocketsPerUser} sockets at once, and refuses one more on any of them with 429 and its reason`, async () => {
    const tokens = await Promise.all(Array.from({ length: maxWatchSocketsPerUser / maxWatchSocketsPerToken + 1 }, () => gateway.createToken()))
    const [spare, ...holders] = tokens.map(({ token }) => token)
    const clients: Array<WatchClient> = []
    for (const token of holders) {
      for (let i = 0; i < maxWatchSocketsPerToken; i++) clients.push(await openWatch({ baseUrl: gateway.baseUrl, token }))
    }
    expect(await upgrade("", { authorization: `Bearer ${spare}` })).toEqual({
      status: 429,
      body: JSON.stringify(`the tokens of this user already hold ${maxWatchSocketsPerUser} watch sockets, the most one user may; close some, or revoke the tokens that hold them`)
    })
    await Promise.all(clients.map((client) => client.close()))
  })

  it("closes a socket with 1008 once its token is revoked in the database, long before the next keep-alive ping", async () => {
    const { id, token } = await gateway.createToken()
    const client = await watchLamp(gateway, token)
    await gateway.revokeToken(id)
    expect(await closedWithin(client)).toEqual(tokenEnded)
  })
})

describe("the end of a socket's token", () => {
  // The database is looked up again only every hour here: what closes these sockets cannot be that.
  let rarely: GatewayOverHttp
  beforeAll(async () => {
    rarely = await startGateway(watchHome, { tokenRecheckMs: 3_600_000 })
  })
  afterAll(() => rarely.close())

  it("closes the socket with 1008 at the token's expiry", async () => {
    const expiresAt = Date.now() + 2_000
    const { token } = await rarely.createToken({ expiresAt })
    const client = await watchLamp(rarely, token)
    expect(await closedWithin(client, 10_000)).toEqual(tokenEnded)
  })

  it("closes the sockets of a session with 1008 as soon as it logs out", async () => {
    const login = await send(`${rarely.baseUrl}/users/login`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`admin:${rarely.adminPassword}`).toString("base64")}` }
    })
    const { session_token: token } = JSON.parse(login.body) as { readonly session_token: string }
    const clients = [await watchLamp(rarely, token), await watchLamp(rarely, token)]
    const other = await watchLamp(rarely, rarely.token)
    const logout = await send(`${rarely.baseUrl}/users/logout`, { method: "POST", headers: { authorization: `Bearer ${token}` } })
    expect(logout.status).toBe(204)
    expect(await Promise.all(clients.map((client) => closedWithin(client)))).toEqual([tokenEnded, tokenEnded])
    // Another token's socket stays open.
    await writeB(rarely.call, lamp, on)
    expect(await other.next()).toEqual({ Value: { from: lamp, value: on } })
    await other.close()
  })
})
