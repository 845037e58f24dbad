import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventuallyAsync } from "../support/eventually.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { send } from "../support/httpRequest.ts"
import { type RunningGateway, spawnGateway } from "../support/spawnGateway.ts"

/**
 * `gateway serve --metrics-open-on-loopback --deprecate-vocabulary-a=DATE --no-dashboard`, as a real process,
 * at `--log-level debug` (docs/configuration.md).
 */
describe("serve --metrics-open-on-loopback --deprecate-vocabulary-a=DATE --no-dashboard", () => {
  let gateway: RunningGateway
  beforeAll(async () => {
    gateway = await spawnGateway([
      "serve",
      "--port",
      "0",
      "--data",
      freshDataDir(),
      "--no-clock",
      "--log-level",
      "debug",
      "--metrics-open-on-loopback",
      "--deprecate-vocabulary-a=2099-06-30",
      "--no-dashboard"
    ])
  })
  afterAll(() => gateway.stop())

  it("answers A with Deprecation, Sunset at that date and the Link, and B without", async () => {
    const authorization = `Bearer ${gateway.token ?? ""}`
    const a = await send(`${gateway.baseUrl}/api/v1/nodes`, { headers: { authorization } })
    const b = await send(`${gateway.baseUrl}/api/v1/services`, { headers: { authorization } })
    expect([a.status, b.status]).toEqual([200, 200])
    expect(a.headers["sunset"]).toBe("Tue, 30 Jun 2099 00:00:00 GMT")
    expect(a.headers["deprecation"]).toMatch(/^@\d+$/)
    expect(a.headers["link"]).toBe("</docs/migrating-a-to-b.md>; rel=\"deprecation\"; type=\"text/markdown\"")
    expect([b.headers["sunset"], b.headers["deprecation"], b.headers["link"]]).toEqual([undefined, undefined, undefined])
  })

  it("serves /metrics to the machine itself without a token, and the guide the Link points at", async () => {
    const metrics = await send(`${gateway.baseUrl}/metrics`)
    expect(metrics.status).toBe(200)
    expect(metrics.body).toContain("gateway_http_requests_total{vocabulary=\"a\",operation=\"get_nodes\",status=\"200\"} 1\n")
    const guide = await send(`${gateway.baseUrl}/docs/migrating-a-to-b.md`)
    expect(guide.status).toBe(200)
    expect(guide.body).toContain("## Watching the use of A fall")
  })

  // How the dashboard is served: test/http/dashboardServing.test.ts.
  it.each(["/", "/tokens", "/migration"])("does not serve the dashboard: %s is a 404 like any unknown path", async (path) => {
    const answer = await send(`${gateway.baseUrl}${path}`)
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 404, body: `no such path: ${path}` })
  })

  it("ends the request log's lines in A with the notice, a shared path's in the vocabulary its body spoke", async () => {
    const authorization = `Bearer ${gateway.token ?? ""}`
    const tag = (body: unknown) =>
      send(`${gateway.baseUrl}/api/v1/channels/tag`, { method: "POST", headers: { authorization }, body: JSON.stringify(body) })
    expect((await tag({ set: [{ id: { Exactly: "getter:hall-light-on@sim" } }], tags: ["a"] })).status).toBe(200)
    expect((await tag({ set: { id: "getter:hall-light-on@sim" }, tags: ["b"] })).status).toBe(200)
    const lines = await eventuallyAsync(
      () => Promise.resolve(gateway.stderr().split("\n").filter((line) => line.includes("POST /api/v1/channels/tag"))),
      (found) => found.length === 2
    )
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(
        String.raw`DEBUG .*: POST /api/v1/channels/tag 200 \d+\.\d\d ms vocabulary A: ` +
          String.raw`vocabulary A is deprecated and goes away on 2099-06-30T00:00:00\.000Z \(docs/migrating-a-to-b\.md\)$`
      )),
      expect.stringMatching(/DEBUG .*: POST \/api\/v1\/channels\/tag 200 \d+\.\d\d ms vocabulary B$/)
    ])
  })
})
