import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { createClient, type DeprecationNotice } from "../../src/client/index.ts"
import { freePort } from "../support/freePort.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { type RunningGateway, spawnGateway } from "../support/spawnGateway.ts"
import { nodePlatform } from "./clients.ts"

/**
 * A client on vocabulary A, against a gateway started with --deprecate-vocabulary-a=DATE, hears of it
 * once (not with every answer): through `onDeprecation`, or else one line on the console. On B, nothing.
 */

let gateway: RunningGateway
let token = ""
beforeAll(async () => {
  const args = ["serve", "--port", String(await freePort()), "--data", freshDataDir(), "--home", "docs/examples/home.json", "--no-clock"]
  gateway = await spawnGateway([...args, "--deprecate-vocabulary-a=2027-06-30"])
  token = gateway.token ?? ""
})
afterAll(() => gateway.stop())

describe("a deprecated vocabulary A", () => {
  it("is told once to onDeprecation: since when, the sunset, and the guide's URL", async () => {
    const notices: Array<DeprecationNotice> = []
    const client = createClient({ url: gateway.baseUrl, token, vocabulary: "a", platform: nodePlatform, onDeprecation: (n) => notices.push(n) })
    await client.services()
    await client.getters()
    await client.fetch()
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatchObject({
      deprecation: expect.stringMatching(/^@\d+$/),
      sunset: "Wed, 30 Jun 2027 00:00:00 GMT",
      link: `${gateway.baseUrl}/docs/migrating-a-to-b.md`
    })
    expect(notices[0]?.message).toContain("goes away on Wed, 30 Jun 2027 00:00:00 GMT")
    await client.close()
  })

  it("is one line on the console by default, and nothing in vocabulary B", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined)
    try {
      const inB = createClient({ url: gateway.baseUrl, token, vocabulary: "b", platform: nodePlatform })
      await inB.services()
      expect(warned).not.toHaveBeenCalled()
      const inA = createClient({ url: gateway.baseUrl, token, vocabulary: "a", platform: nodePlatform })
      await inA.services()
      await inA.services()
      expect(warned.mock.calls).toEqual([[expect.stringContaining("the gateway deprecates the vocabulary this client speaks")]])
      await inA.close()
      await inB.close()
    } finally {
      warned.mockRestore()
    }
  })
})
