import { describe, expect, it } from "vitest"
import { anyChannel } from "../../src/domain/Selector.ts"
import { maxTokenSeries } from "../../src/http/observation/RequestMetrics.ts"
import { type GatewayOverHttp, gatewayForSuite } from "../support/gatewayOverHttp.ts"
import { eventuallyAsync } from "../support/eventually.ts"
import { send } from "../support/httpRequest.ts"
import { openWatch } from "../support/openWatch.ts"
import { familyType, parseScrape, type Scrape, sample } from "../support/prometheusText.ts"
import { adapter, home, troubledDeviceTimeoutMs, troubledHome } from "./vocabularyB/homes.ts"

/**
 * `GET /metrics` (docs/configuration.md): Effect's Prometheus exposition of the gateway's metrics, read
 * with a Prometheus text parser from npm. Each request counts in the vocabulary it was read in, a shared
 * path's in the one its body or registration spoke; vocabulary A's calls count by token id.
 */

const scrapeOf = async (gateway: GatewayOverHttp, token = gateway.token): Promise<Scrape> => {
  const reply = await send(`${gateway.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })
  expect(reply.status).toBe(200)
  expect(reply.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8")
  return parseScrape(reply.body)
}

const requests = "gateway_http_requests_total"

/** A's channel tag body, and B's, for the same getter. */
const tagInA = { set: [{ id: { Exactly: "getter:kitchen-light-on@b" } }], tags: ["counted"] }
const tagInB = { set: { id: "getter:kitchen-light-on@b" }, tags: ["counted"] }

describe("GET /metrics", () => {
  const suite = gatewayForSuite(home)

  it("parses as Prometheus text, and counts each request by the vocabulary it was read in, its operation and status", async () => {
    const gateway = suite()
    const { id, token } = await gateway.createToken()
    const as = { authorization: `Bearer ${token}` }
    const before = await scrapeOf(gateway)

    expect((await gateway.call("GET", "/api/v1/nodes", undefined, as)).status).toBe(200)
    expect((await gateway.call("GET", "/api/v1/services", undefined, as)).status).toBe(200)
    expect((await gateway.call("GET", "/api/v1/services", undefined, as)).status).toBe(200)
    expect((await gateway.call("POST", "/api/v1/channels/tag", tagInA, as)).status).toBe(200)
    expect((await gateway.call("POST", "/api/v1/channels/tag", tagInB, as)).status).toBe(200)
    expect((await gateway.call("POST", "/api/v1/channels/tag", { nonsense: true }, as)).status).toBe(400)
    expect((await gateway.call("DELETE", "/api/v1/services", undefined, as)).status).toBe(405)

    const after = await scrapeOf(gateway)
    const moved = (name: string, labels: Readonly<Record<string, string>>) => sample(after, name, labels) - sample(before, name, labels)
    expect({
      nodes: moved(requests, { vocabulary: "a", operation: "get_nodes", status: "200" }),
      services: moved(requests, { vocabulary: "b", operation: "get_services", status: "200" }),
      tagInA: moved(requests, { vocabulary: "a", operation: "add_channel_tags", status: "200" }),
      tagInB: moved(requests, { vocabulary: "b", operation: "add_channel_tags", status: "200" }),
      tagUnread: moved(requests, { vocabulary: "unknown", operation: "add_channel_tags", status: "400" }),
      refusedMethod: moved(requests, { vocabulary: "b", operation: "none", status: "405" }),
      aCallsOfToken: moved("gateway_vocabulary_a_calls_total", { token: String(id) })
    }).toEqual({ nodes: 1, services: 2, tagInA: 1, tagInB: 1, tagUnread: 1, refusedMethod: 1, aCallsOfToken: 2 })
    expect(familyType(after, "gateway_http_request_duration_seconds")).toBe("HISTOGRAM")
  })

  it("counts a watch socket in the vocabulary its first registration spoke, and keeps the open ones in a gauge", async () => {
    const gateway = suite()
    const { id, token } = await gateway.createToken()
    const before = await scrapeOf(gateway)
    const a = await openWatch({ baseUrl: gateway.baseUrl, token })
    a.send([{ source: { id: { Exactly: "getter:kitchen-light-on@b" } }, should_watch_topology: true }])
    await a.next()
    const b = await openWatch({ baseUrl: gateway.baseUrl, token })
    b.send([{ select: { id: "getter:kitchen-light-on@b" } }])
    await b.next()

    const open = await scrapeOf(gateway)
    const moved = (name: string, labels: Readonly<Record<string, string>>) => sample(open, name, labels) - sample(before, name, labels)
    expect({
      inA: moved(requests, { vocabulary: "a", operation: "watch_channels", status: "101" }),
      inB: moved(requests, { vocabulary: "b", operation: "watch_channels", status: "101" }),
      openInA: sample(open, "gateway_watch_sockets", { vocabulary: "a" }),
      openInB: sample(open, "gateway_watch_sockets", { vocabulary: "b" }),
      aCallsOfToken: moved("gateway_vocabulary_a_calls_total", { token: String(id) })
    }).toEqual({ inA: 1, inB: 1, openInA: 1, openInB: 1, aCallsOfToken: 1 })
    // What waits for the slowest watcher, read when scraped (test/http/watch/slowConsumer.test.ts stalls one).
    expect([familyType(open, "gateway_watch_queued_events"), familyType(open, "gateway_watch_unsent_bytes")]).toEqual(["GAUGE", "GAUGE"])

    await a.close()
    await b.close()
    const closed = await eventuallyAsync(() => scrapeOf(gateway), (scrape) => sample(scrape, "gateway_watch_sockets", { vocabulary: "a" }) === 0)
    expect(["a", "b", "unknown"].map((vocabulary) => sample(closed, "gateway_watch_sockets", { vocabulary }))).toEqual([0, 0, 0])
    // Counted when they registered, not again when they closed.
    expect(sample(closed, requests, { vocabulary: "a", operation: "watch_channels", status: "101" }))
      .toBe(sample(open, requests, { vocabulary: "a", operation: "watch_channels", status: "101" }))
  })

  it("counts refused logins", async () => {
    const gateway = suite()
    const before = await scrapeOf(gateway)
    const wrong = Buffer.from("admin:not the password").toString("base64")
    expect((await send(`${gateway.baseUrl}/users/login`, { method: "POST", headers: { authorization: `Basic ${wrong}` } })).status).toBe(401)
    const after = await scrapeOf(gateway)
    const labels = { reason: "wrong credentials" }
    expect(sample(after, "gateway_logins_refused_total", labels) - sample(before, "gateway_logins_refused_total", labels)).toBe(1)
  })

  it("needs a token with the metrics right: 401 without one, 403 with a scope that lacks it", async () => {
    const gateway = suite()
    expect(await send(`${gateway.baseUrl}/metrics`)).toMatchObject({
      status: 401,
      body: JSON.stringify("a token is required: send Authorization: Bearer <token>, or ?auth=<token>")
    })
    const reader = await gateway.createToken({ scope: { channels: [anyChannel], rights: ["read", "write", "watch", "tag"] } })
    expect(await send(`${gateway.baseUrl}/metrics`, { headers: { authorization: `Bearer ${reader.token}` } })).toMatchObject({
      status: 403,
      body: JSON.stringify("this token does not grant the \"metrics\" right")
    })
    const scraper = await gateway.createToken({ scope: { channels: [], rights: ["metrics"] } })
    expect(familyType(await scrapeOf(gateway, scraper.token), requests)).toBe("COUNTER")
  })
})

/** The token labels of vocabulary A's calls in a scrape. */
const aCallSeries = (scrape: Scrape): ReadonlyArray<string> =>
  scrape.find((family) => family.name === "gateway_vocabulary_a_calls_total")?.metrics.map((metric) => metric.labels?.["token"] ?? "") ?? []

describe("GET /metrics, vocabulary A's calls by token", () => {
  const suite = gatewayForSuite(home)

  it("counts no call refused with 403, so a token without the right makes no series however often it calls", async () => {
    const gateway = suite()
    const refused = await gateway.createToken({ scope: { channels: [anyChannel], rights: ["watch"] } })
    for (let i = 0; i < 3; i++) {
      expect((await gateway.call("GET", "/api/v1/nodes", undefined, { authorization: `Bearer ${refused.token}` })).status).toBe(403)
    }
    const reader = await gateway.createToken({ scope: { channels: [anyChannel], rights: ["read"] } })
    expect((await gateway.call("GET", "/api/v1/nodes", undefined, { authorization: `Bearer ${reader.token}` })).status).toBe(200)
    const scrape = await scrapeOf(gateway)
    expect(aCallSeries(scrape)).not.toContain(String(refused.id))
    expect(sample(scrape, "gateway_vocabulary_a_calls_total", { token: String(reader.id) })).toBe(1)
  })

  it(`gives the first ${maxTokenSeries} tokens a series of their own and counts later ones under token="other"`, async () => {
    const gateway = suite()
    const before = aCallSeries(await scrapeOf(gateway)).length
    const callers = []
    for (let i = 0; i < maxTokenSeries - before + 2; i++) callers.push(await gateway.createToken({ user: "caller" }))
    for (const { token } of callers) {
      expect((await gateway.call("GET", "/api/v1/nodes", undefined, { authorization: `Bearer ${token}` })).status).toBe(200)
    }
    const [first] = callers
    expect((await gateway.call("GET", "/api/v1/nodes", undefined, { authorization: `Bearer ${first?.token}` })).status).toBe(200)
    const scrape = await scrapeOf(gateway)
    const series = aCallSeries(scrape)
    expect(series.length).toBe(maxTokenSeries + 1)
    expect(series.filter((token) => token !== "other").length).toBe(maxTokenSeries)
    expect({
      first: sample(scrape, "gateway_vocabulary_a_calls_total", { token: String(first?.id) }),
      other: sample(scrape, "gateway_vocabulary_a_calls_total", { token: "other" }),
      last: sample(scrape, "gateway_vocabulary_a_calls_total", { token: String(callers.at(-1)?.id) })
    }).toEqual({ first: 2, other: 2, last: 0 })
  })
})

describe("GET /metrics, device calls", () => {
  const suite = gatewayForSuite(troubledHome, { deviceTimeoutMs: troubledDeviceTimeoutMs })

  it("counts each adapter's calls, those that failed and those cut at the device timeout", async () => {
    const gateway = suite()
    const names = ["gateway_device_calls_total", "gateway_device_call_errors_total", "gateway_device_call_timeouts_total"]
    const counts = (scrape: Scrape) => names.map((name) => sample(scrape, name, { adapter }))
    const before = counts(await scrapeOf(gateway))
    // One call of the adapter for its three devices: one fails, one never answers.
    expect((await gateway.call("GET", "/api/v1/channels/get")).status).toBe(200)
    const troubled = counts(await scrapeOf(gateway))
    expect(troubled.map((count, i) => count - (before[i] ?? 0))).toEqual([1, 1, 1])
    expect((await gateway.call("GET", "/api/v1/channels/get", { id: "getter:lamp-on@b" })).status).toBe(200)
    const healthy = counts(await scrapeOf(gateway))
    expect(healthy.map((count, i) => count - (troubled[i] ?? 0))).toEqual([1, 0, 0])
  })
})

describe("GET /metrics with --metrics-open-on-loopback", () => {
  const suite = gatewayForSuite(home, { metricsOpenOnLoopback: true })

  it("answers a request from the machine itself without a token", async () => {
    const gateway = suite()
    expect((await gateway.call("GET", "/api/v1/services")).status).toBe(200)
    const reply = await send(`${gateway.baseUrl}/metrics`)
    expect(reply.status).toBe(200)
    expect(familyType(parseScrape(reply.body), requests)).toBe("COUNTER")
  })

  it.each([
    ["x-forwarded-for", "203.0.113.5"],
    ["forwarded", "for=203.0.113.5;proto=https"],
    ["x-real-ip", "203.0.113.5"]
  ])("asks for a token when a proxy on the machine relays the request (%s), as for anyone it serves", async (header, value) => {
    const gateway = suite()
    const relayed = await send(`${gateway.baseUrl}/metrics`, { headers: { [header]: value } })
    expect({ status: relayed.status, body: JSON.parse(relayed.body) }).toEqual({ status: 401, body: "a token is required: send Authorization: Bearer <token>, or ?auth=<token>" })
    const withToken = await send(`${gateway.baseUrl}/metrics`, { headers: { [header]: value, authorization: `Bearer ${gateway.token}` } })
    expect(withToken.status).toBe(200)
  })
})
