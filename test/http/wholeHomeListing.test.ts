import { writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventuallyAsync } from "../support/eventually.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { home } from "./vocabularyB/homes.ts"

/**
 * The listing of the whole home (a request without a body) is built and written once per change of the
 * home (src/gateway/WholeHome.ts): the next listing after a tag edit or a home-file change shows it.
 */

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(home)
})
afterAll(() => gateway.close())

interface Listed {
  readonly id: string
  readonly tags: ReadonlyArray<string>
}

const listing = async (path: "/api/v1/services" | "/api/v1/nodes"): Promise<ReadonlyArray<Listed>> => {
  const { status, json } = await gateway.call("GET", path)
  expect(status).toBe(200)
  return json as ReadonlyArray<Listed>
}

const tagsOf = (listed: ReadonlyArray<Listed>, id: string) => listed.find((service) => service.id === id)?.tags

describe("the listing of the whole home", () => {
  it("shows a tag edit in the next listing, in both vocabularies", async () => {
    const doorbell = "service:doorbell@b"
    // Listed twice first: the second answer is the one kept.
    expect(tagsOf(await listing("/api/v1/services"), doorbell)).toEqual(["entrance"])
    expect(tagsOf(await listing("/api/v1/services"), doorbell)).toEqual(["entrance"])
    expect(tagsOf(await listing("/api/v1/nodes"), doorbell)).toEqual(["entrance"])
    expect((await gateway.call("POST", "/api/v1/services/tag", { services: { id: doorbell }, tags: ["front"] })).status).toBe(200)
    expect(tagsOf(await listing("/api/v1/services"), doorbell)).toEqual(["entrance", "front"])
    expect(tagsOf(await listing("/api/v1/nodes"), doorbell)).toEqual(["entrance", "front"])
  })

  it("shows a change of the home file in the next listing", async () => {
    const [first, ...rest] = home.services
    const ids = (listed: ReadonlyArray<Listed>) => listed.map((service) => service.id)
    expect(ids(await listing("/api/v1/services"))).toContain(first?.id)
    writeFileSync(gateway.homeFile, JSON.stringify({ ...home, services: rest }))
    // The file is read again when it changes: the listing shows it once the gateway has.
    const without = await eventuallyAsync(() => listing("/api/v1/services"), (listed) => !ids(listed).includes(first?.id ?? ""))
    expect(ids(without)).toEqual(rest.map((service) => service.id).sort())
    writeFileSync(gateway.homeFile, JSON.stringify(home))
    const back = await eventuallyAsync(() => listing("/api/v1/services"), (listed) => ids(listed).includes(first?.id ?? ""))
    expect(ids(back)).toEqual(home.services.map((service) => service.id).sort())
  })
})
