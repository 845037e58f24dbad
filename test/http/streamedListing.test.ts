import { describe, expect, it } from "vitest"
import { homeFileOf } from "../../bench/support/GeneratedHome.ts"
import { gatewayForSuite } from "../support/gatewayOverHttp.ts"
import { rawAnswer } from "../support/rawAnswer.ts"

/**
 * A whole gateway whose listing of services passes 1 MiB (600 services of 10 channels, some 1.5 MB): it is
 * answered chunked (src/http/transport/StreamedText.ts), and whole, with its length, to a request that asks
 * for an upgrade, which the platform's writer answers (RequestHandler's `upgradeApp`).
 */

const gateway = gatewayForSuite(homeFileOf(600))

/** The raw answer to `request` on a connection of its own. */
const raw = (request: string) => rawAnswer(Number(new URL(gateway().baseUrl).port), request)

const ids = (json: unknown) => (json as ReadonlyArray<{ readonly id: string }>).map((service) => service.id)

describe("a listing longer than 1 MiB", () => {
  it("is answered chunked, every service in it", async () => {
    const { status, headers, json } = await gateway().call("GET", "/api/v1/services")
    expect(status).toBe(200)
    expect(headers["transfer-encoding"]).toBe("chunked")
    expect(headers["content-length"]).toBeUndefined()
    expect(ids(json)).toContain("service:000599@bench")
    expect(ids(json)).toHaveLength(600)
  })

  it("is answered whole, with its length, to a request that asks for an upgrade", async () => {
    const { json } = await gateway().call("GET", "/api/v1/services")
    const { head, body } = await raw(
      `GET /api/v1/services HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${gateway().token}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    expect(head).toMatch(/^HTTP\/1\.1 200 /)
    expect(head).toMatch(new RegExp(`content-length: ${body.length}\r\n`, "i"))
    expect(ids(JSON.parse(body.toString("utf8")))).toEqual(ids(json))
  })
})
