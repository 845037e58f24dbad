import { writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { gatewayVersion } from "../../src/Version.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { send } from "../support/httpRequest.ts"
import { adapter, home } from "./vocabularyB/homes.ts"

/** Asks `/health` until `done` holds for its body (a reload is noticed within about a second). */
const healthUntil = async (gateway: GatewayOverHttp, done: (body: unknown) => boolean): Promise<unknown> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { json } = await gateway.call("GET", "/health")
    if (done(json)) return json
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error("/health never reached the expected state")
}

const statusOf = (body: unknown): unknown => (typeof body === "object" && body !== null && "status" in body ? body.status : undefined)

describe("/health and /ping", () => {
  let gateway: GatewayOverHttp
  beforeAll(async () => {
    gateway = await startGateway(home)
  })
  afterAll(() => gateway.close())

  it("GET /health answers exactly {\"status\": \"ok\"} when all is well", async () => {
    const reply = await send(`${gateway.baseUrl}/health`)
    expect(reply.status).toBe(200)
    expect(reply.headers["content-type"]).toBe("application/json")
    expect(JSON.parse(reply.body)).toEqual({ status: "ok" })
  })

  it("HEAD /health answers like GET, without a body", async () => {
    const reply = await send(`${gateway.baseUrl}/health`, { method: "HEAD" })
    expect(reply.status).toBe(200)
    expect(reply.headers["content-type"]).toBe("application/json")
    expect(reply.body).toBe("")
  })

  it("GET and HEAD /ping answer 204 with no body, as the FoxBox app expects", async () => {
    for (const method of ["GET", "HEAD"]) {
      const reply = await send(`${gateway.baseUrl}/ping`, { method })
      expect({ method, status: reply.status, body: reply.body }).toEqual({ method, status: 204, body: "" })
    }
  })

  it("reports degraded, still 200, after a refused home file change, and ok once a good one is applied", async () => {
    writeFileSync(gateway.homeFile, JSON.stringify({ ...home, services: [{ id: "service:x@b", latncy_ms: 3 }] }))
    const degraded = await healthUntil(gateway, (body) => statusOf(body) === "degraded")
    expect(degraded).toEqual({
      status: "degraded",
      reasons: ["the last change of the home file was refused; the home before it is still served"],
      home: gateway.homeFile,
      last_reload_error: expect.stringContaining(`${gateway.homeFile}: services[0].latncy_ms: unknown field`),
      adapters: [adapter],
      version: gatewayVersion
    })
    expect((await gateway.call("HEAD", "/health")).status).toBe(200)

    writeFileSync(gateway.homeFile, JSON.stringify(home))
    expect(await healthUntil(gateway, (body) => statusOf(body) === "ok")).toEqual({ status: "ok" })
  })
})

describe("version", () => {
  it("is package.json's", async () => {
    const { default: pkg } = await import("../../package.json", { with: { type: "json" } })
    expect(gatewayVersion).toBe(pkg.version)
  })
})
