import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { insertTokens } from "../../support/manyTokens.ts"
import { watchHome } from "../watch/watchHome.ts"

/** `GET /api/v1/tokens` in pages (issue 34, item 2; docs/reference.md §8): `?limit=` and `?after=`, by id. */

let gateway: GatewayOverHttp
/** The pager's token, and the ids of its 250 tokens (that one first), ascending. */
let pager: string
let ids: ReadonlyArray<number>

beforeAll(async () => {
  gateway = await startGateway(watchHome)
  const own = await gateway.createToken({ user: "pager" })
  pager = own.token
  ids = [own.id, ...(await insertTokens(gateway.dataDir, "pager", 249))]
})
afterAll(() => gateway.close())

const page = async (query: string, token = pager) => {
  const { status, json } = await gateway.call("GET", `/api/v1/tokens${query}`, undefined, { authorization: `Bearer ${token}` })
  return { status, json: status === 200 ? (json as ReadonlyArray<{ readonly id: number }>).map((t) => t.id) : json }
}

describe("list_tokens, in pages", () => {
  it("answers the first 100 by id when no limit is given", async () => {
    expect(await page("")).toEqual({ status: 200, json: ids.slice(0, 100) })
  })

  it("answers at most `limit`, those above `after`, and a short page at the end", async () => {
    expect(await page(`?limit=7&after=${ids[10]}`)).toEqual({ status: 200, json: ids.slice(11, 18) })
    expect(await page(`?after=${ids[199]}`)).toEqual({ status: 200, json: ids.slice(200) })
    expect(await page(`?after=${ids[249]}`)).toEqual({ status: 200, json: [] })
    // `after` need not be an id of the caller's: it is a place in the order of ids.
    expect(await page(`?limit=1&after=${(ids[20] ?? 0) - 1}`)).toEqual({ status: 200, json: [ids[20]] })
  })

  it("answers up to 1,000 in one page", async () => {
    expect(await page("?limit=1000")).toEqual({ status: 200, json: ids })
  })

  it("refuses a limit or an after that is not a whole number in range, with a 400 naming it", async () => {
    const refused = (query: string) => page(query).then((answer) => [answer.status, answer.json])
    expect(await refused("?limit=0")).toEqual([400, "query.limit: expected an integer from 1 to 1000, got \"0\""])
    expect(await refused("?limit=1001")).toEqual([400, "query.limit: expected an integer from 1 to 1000, got \"1001\""])
    expect(await refused("?limit=ten")).toEqual([400, "query.limit: expected an integer from 1 to 1000, got \"ten\""])
    expect(await refused("?limit=")).toEqual([400, "query.limit: expected an integer from 1 to 1000, got \"\""])
    expect(await refused("?limit=2.5")).toEqual([400, "query.limit: expected an integer from 1 to 1000, got \"2.5\""])
    expect(await refused("?after=-1")).toEqual([400, "query.after: expected an integer of at least 0, got \"-1\""])
    expect(await refused("?after=1e3")).toEqual([400, "query.after: expected an integer of at least 0, got \"1e3\""])
    expect(await refused("?page=2")).toEqual([400, "query: unknown parameter \"page\" (known: after, auth, limit, vocabulary)"])
  })

  it("fills a scoped token's page with tokens within its scope, however many others lie between them", async () => {
    const none = { channels: [], rights: ["read" as const, "tokens" as const] }
    const scoped = await gateway.createToken({ user: "narrow", scope: none })
    await insertTokens(gateway.dataDir, "narrow", 120)
    const within = await gateway.createToken({ user: "narrow", scope: none })
    await insertTokens(gateway.dataDir, "narrow", 120)
    const last = await gateway.createToken({ user: "narrow", scope: none })
    expect(await page("?limit=2", scoped.token)).toEqual({ status: 200, json: [scoped.id, within.id] })
    expect(await page(`?limit=2&after=${within.id}`, scoped.token)).toEqual({ status: 200, json: [last.id] })
  })
})
