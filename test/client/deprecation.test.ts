import { readFileSync } from "node:fs"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { createClient, type DeprecationNotice } from "../../src/client/index.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { nodePlatform } from "./clients.ts"

/**
 * A client on vocabulary A, against a gateway started with --deprecate-vocabulary-a=DATE, hears of it
 * once (not with every answer): through `onDeprecation`, or else one line on the console. On B, nothing.
 */

const home = JSON.parse(readFileSync(new URL("../../docs/examples/home.json", import.meta.url), "utf8"))

let gateway: GatewayOverHttp
let token = ""
beforeAll(async () => {
  // What --deprecate-vocabulary-a=2027-06-30 reads as (test/cli/metricsAndDeprecation.test.ts starts a gateway with the flag).
  gateway = await startGateway(home, { deprecateVocabularyA: Option.some({ sunset: Option.some(new Date("2027-06-30T00:00:00Z")) }) })
  token = gateway.token
})
afterAll(() => gateway.close())

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
