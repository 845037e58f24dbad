import { describe, expect, it } from "vitest"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { send } from "../support/httpRequest.ts"
import { spawnGateway } from "../support/spawnGateway.ts"

/**
 * A write the gateway acknowledged survives the process being killed outright (SIGKILL: no cleanup at
 * all), because the tag is committed to SQLite (WAL, synchronous FULL) before the answer is sent.
 */
describe("tag writes", () => {
  it("are all still there after a SIGKILL in the middle of a stream of them and a restart", async () => {
    const dataDir = freshDataDir()
    const args = ["serve", "--port", "0", "--no-clock", "--data", dataDir]
    const first = await spawnGateway(args)
    const headers = { authorization: `Bearer ${first.token ?? ""}` }
    const acknowledged: Array<string> = []
    let killed = false
    // Four clients writing one tag after another, each on every service; the kill lands among them.
    const writer = async (client: number) => {
      for (let n = 0; !killed; n++) {
        const tag = `w${client}-${n}`
        try {
          const reply = await send(`${first.baseUrl}/api/v1/services/tag`, {
            method: "POST",
            headers,
            body: JSON.stringify({ services: {}, tags: [tag] })
          })
          if (reply.status === 200) acknowledged.push(tag)
        } catch {
          return // The server is gone.
        }
      }
    }
    const writers = [0, 1, 2, 3].map(writer)
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(40)
    killed = true
    const exited = await first.stop("SIGKILL")
    await Promise.all(writers)
    expect(exited.signal).toBe("SIGKILL")

    const again = await spawnGateway(args)
    try {
      const services = JSON.parse((await send(`${again.baseUrl}/api/v1/services`, { headers })).body) as ReadonlyArray<{ id: string; tags: ReadonlyArray<string> }>
      expect(services.length).toBeGreaterThan(0)
      for (const service of services) {
        const missing = acknowledged.filter((tag) => !service.tags.includes(tag))
        expect({ service: service.id, missing }).toEqual({ service: service.id, missing: [] })
      }
    } finally {
      await again.stop("SIGTERM")
    }
  })
})
