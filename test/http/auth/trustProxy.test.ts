import { describe, expect, it } from "vitest"
import type { GatewayOptions } from "../../../src/GatewayOptions.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { type HttpReply, send } from "../../support/httpRequest.ts"
import { home } from "../vocabularyB/homes.ts"

/**
 * `--trust-proxy` over real HTTP: behind a reverse proxy on the same machine every connection comes from
 * 127.0.0.1, and the login throttle counts the client the proxy names instead (docs/security.md).
 */

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`

const trustLoopback: Partial<GatewayOptions> = { trustProxy: new Set(["127.0.0.1"]) }

/** A gateway of its own per test, its log kept out of the output, stopped after. */
const onGateway = async (options: Partial<GatewayOptions>, test: (gateway: GatewayOverHttp) => Promise<void>) => {
  const gateway = await startGateway(home, options, { captureLogs: true })
  try {
    await test(gateway)
  } finally {
    await gateway.close()
  }
}

/** A login through the "proxy": from `from` (a loopback address), with the relay headers given. */
const login = (gateway: GatewayOverHttp, user: string, password: string, relay: Record<string, string>, from = "127.0.0.1") =>
  send(`${gateway.baseUrl}/users/login`, {
    method: "POST",
    headers: { authorization: basic(user, password), ...relay },
    timeoutMs: 30_000,
    localAddress: from
  })

/** 20 wrong logins at once, under as many usernames, relayed for one client: the address's whole budget. */
const failTwenty = (gateway: GatewayOverHttp, relay: (i: number) => Record<string, string>, from?: string) =>
  Promise.all(Array.from({ length: 20 }, (_, i) => login(gateway, `nobody${i}`, "wrong", relay(i), from)))

// scrypt runs on libuv's four threads: 20 logins take a while on two shared cores.
const statuses = (replies: ReadonlyArray<HttpReply>) => [...new Set(replies.map((reply) => reply.status))]

describe("--trust-proxy 127.0.0.1", () => {
  it("counts failed logins against the client the proxy names: 20 for one client do not refuse the admin's right password for another", () =>
    onGateway(trustLoopback, async (gateway) => {
      // What nginx's $proxy_add_x_forwarded_for sends: what the client claimed, then the address it came from.
      expect(statuses(await failTwenty(gateway, () => ({ "x-forwarded-for": "198.51.100.9, 203.0.113.7" })))).toEqual([401])
      expect((await login(gateway, "admin", gateway.adminPassword, { "x-forwarded-for": "203.0.113.7" })).status).toBe(429)
      expect((await login(gateway, "admin", gateway.adminPassword, { forwarded: "for=198.51.100.9;proto=https" })).status).toBe(201)
      expect((await login(gateway, "admin", gateway.adminPassword, { "x-forwarded-for": "2001:db8::7" })).status).toBe(201)
      // The proxy's own requests (none relayed) are a client of their own too.
      expect((await login(gateway, "admin", gateway.adminPassword, {})).status).toBe(201)
      expect(gateway.logs()).toContain(`WARN login refused for "nobody0" from 203.0.113.7`)
    }), 120_000)

  it("ignores the relay headers of a connection from an address it does not trust", () =>
    onGateway(trustLoopback, async (gateway) => {
      const claimed = (i: number) => ({ "x-forwarded-for": `203.0.113.${i + 1}` })
      expect(statuses(await failTwenty(gateway, claimed, "127.0.0.2"))).toEqual([401])
      expect((await login(gateway, "admin", gateway.adminPassword, { "x-forwarded-for": "198.51.100.9" }, "127.0.0.2")).status).toBe(429)
      expect(gateway.logs()).toContain(`WARN login refused for "nobody0" from 127.0.0.2`)
    }), 120_000)

  it("answers 400, saying why, a request whose relay header it cannot read", () =>
    onGateway(trustLoopback, async (gateway) => {
      const services = (relay: Record<string, string>) => gateway.call("GET", "/api/v1/services", undefined, relay)
      const unquoted = await services({ forwarded: "for=2001:db8::1" })
      expect(unquoted.status).toBe(400)
      expect(unquoted.json).toBe(
        "Forwarded from a trusted proxy: for=2001:db8::1: neither a token nor a quoted string (an IPv6 address is quoted and in brackets: for=\"[2001:db8::1]\")"
      )
      const garbled = await login(gateway, "admin", gateway.adminPassword, { "x-forwarded-for": "203.0.113.7, somewhere" })
      expect({ status: garbled.status, body: JSON.parse(garbled.body) }).toEqual({
        status: 400,
        body: "X-Forwarded-For from a trusted proxy: \"somewhere\": not an IPv4 address, an IPv6 address in brackets, unknown, nor a name starting with _"
      })
      // X-Real-IP is no relay header of ours.
      expect((await services({ "x-real-ip": "not an address" })).status).toBe(200)
      expect((await services({ forwarded: "for=\"[2001:db8::1]:443\"" })).status).toBe(200)
    }), 120_000)
})

describe("without --trust-proxy", () => {
  it("ignores relay headers: 20 failed logins from the proxy's address refuse everyone behind it", () =>
    onGateway({}, async (gateway) => {
      expect(statuses(await failTwenty(gateway, () => ({ "x-forwarded-for": "203.0.113.7" })))).toEqual([401])
      expect((await login(gateway, "admin", gateway.adminPassword, { forwarded: "for=198.51.100.9" })).status).toBe(429)
      expect((await gateway.call("GET", "/api/v1/services", undefined, { forwarded: "for=2001:db8::1" })).status).toBe(200)
      expect(gateway.logs()).toContain(`WARN login refused for "nobody0" from 127.0.0.1`)
    }), 120_000)
})
