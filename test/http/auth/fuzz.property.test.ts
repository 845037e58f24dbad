import BetterSqlite3 from "better-sqlite3"
import * as fc from "fast-check"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { routes } from "../../../src/main.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import { decoded } from "../../crossVocabulary/answers.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { badText, badValue, someObject, someValue } from "../malformedBodies.ts"
import { home } from "../vocabularyB/homes.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

/**
 * Random requests to every route of both vocabularies, and to the user paths, with random methods,
 * headers (oversized ones too: 431), tokens and malformed or oversized bodies: the gateway answers only
 * 2xx and 4xx, every body is JSON (or empty; the success of a route whose answer is text, such as
 * `/metrics`, is in its media type), it keeps answering, and a refused request changes no tag, user or
 * token row.
 */

const maxBodyBytes = 2_048
let gateway: GatewayOverHttp
let database: BetterSqlite3.Database
beforeAll(async () => {
  gateway = await startGateway(home, { maxBodyBytes })
  database = new BetterSqlite3(join(gateway.dataDir, "gateway.db"), { readonly: true })
})
afterAll(async () => {
  database.close()
  await gateway.close()
})

/** What a refused request must leave alone (`last_used_at` is bookkeeping of accepted tokens). */
const rows = () => ({
  tags: database.prepare("SELECT * FROM tags ORDER BY owner_kind, owner_id, tag").all(),
  users: database.prepare("SELECT * FROM users ORDER BY id").all(),
  tokens: database.prepare("SELECT id, token_hash, user_id, kind, label, scope, created_at, expires_at, revoked_at FROM tokens ORDER BY id").all()
})

const paths = [...new Set(routes.map((r) => r.path))]
/** The method and path of each route whose success is not JSON, with the media type it is in. */
const textAnswers = new Map(
  routes.flatMap(({ method, path, endpoint }) => (endpoint.answer.mediaType === undefined ? [] : [[`${method} ${path}`, endpoint.answer.mediaType]]))
)
const path = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...paths) },
  { weight: 1, arbitrary: fc.constantFrom("/api/v1", "/api/v2/services", "/users", "/api/v1/services/", "/%00", "/api/v1/channels/get/x") }
)
const method = fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND")

type Credentials = "admin" | "scoped" | "none" | "garbage" | "basic" | "lowercase"
const credentials = fc.constantFrom<Credentials>("admin", "scoped", "none", "garbage", "basic", "lowercase")

/** Near-misses of the real bodies, junk, and bodies over the limit. */
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }).map((json) => JSON.stringify(json)),
  // Nested far deeper than any real body, in an array or under a field every route reads.
  fc.tuple(fc.integer({ min: 500, max: 20_000 }), fc.constantFrom("[", "{\"set\":[", "{\"services\":[")).map(
    ([depth, open]) => open + "[".repeat(depth) + "]".repeat(depth) + (open === "[" ? "]" : "]}")
  ),
  fc.record({ services: fc.oneof(someObject, fc.constant({})), tags: fc.array(fc.oneof(badText, fc.string()), { maxLength: 3 }) }).map((b) => JSON.stringify(b)),
  fc.record({ set: fc.oneof(someObject, fc.constant({})), tags: fc.array(fc.string(), { maxLength: 2 }) }).map((b) => JSON.stringify(b)),
  fc.record({ select: someObject, value: fc.oneof(someValue, badValue) }).map((b) => JSON.stringify(b)),
  fc.record({ username: fc.oneof(fc.string(), fc.integer()), email: fc.string(), password: fc.string() }).map((b) => JSON.stringify(b)),
  fc.string({ maxLength: 64 }),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.nat({ max: 3 }).map((n) => `"${"x".repeat(maxBodyBytes + n * 1000)}"`)
)

/** Node's limit on a request's headers (`--max-http-header-size`, 16 KiB): past it, Node answers 431 itself. */
const headerLimitBytes = 16 * 1024

const extraHeaders = fc.oneof(
  { weight: 9, arbitrary: fc.dictionary(
    fc.constantFrom("content-type", "accept", "origin", "x-forwarded-for", "x-junk", "access-control-request-method"),
    fc.string({ maxLength: 40 }).filter((v) => /^[\t\x20-\x7e]*$/.test(v)),
    { maxKeys: 3 }
  ) },
  // Oversized: one header past the limit, or many that add up past it.
  { weight: 1, arbitrary: fc.integer({ min: headerLimitBytes, max: 4 * headerLimitBytes }).map((n) => ({ "x-junk": "x".repeat(n) })) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 60 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-junk-${i}`, "y".repeat(1_000)]))) }
)

/** The size of the headers sent beside the ones the property sets itself. */
const headerBytes = (headers: Readonly<Record<string, string>>) => Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0)

/** Whether the token so numbered still stands for its user: not revoked, its user not gone. */
const live = (id: number): boolean =>
  database.prepare("SELECT 1 FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ? AND t.revoked_at IS NULL").get(id) !== undefined

let admin: { readonly id: number; readonly token: string } | undefined
/** An unscoped token of the admin: the last one, unless a run revoked it. */
const adminToken = async (): Promise<string> => {
  if (admin === undefined || !live(admin.id)) admin = await gateway.createToken()
  return admin.token
}

describe("any request", () => {
  it("is answered 2xx or 4xx with a JSON body, the gateway keeps answering, and a refused one changes no row", async () => {
    const scoped = await gateway.createToken({ scope: decoded(decode(B.ScopeJson, { channels: { tags: ["main"] }, rights: ["read", "tag"] })) })
    await fc.assert(
      fc.asyncProperty(method, path, credentials, body, extraHeaders, fc.boolean(), async (verb, where, who, payload, extra, inQuery) => {
        // A new token when a run has revoked the last one (a logout), so that it does not lock the next
        // runs out: one per run made each run read and compare hundreds of token rows.
        const token = await adminToken()
        const presented = who === "admin" ? token : who === "scoped" ? scoped.token : `gw_${"x".repeat(43)}`
        const authorization: Record<Credentials, string | undefined> = {
          admin: `Bearer ${presented}`,
          scoped: `Bearer ${presented}`,
          none: undefined,
          garbage: "Bearer \u00ff\u00fe",
          basic: `Basic ${Buffer.from("admin:wrong").toString("base64")}`,
          lowercase: `bearer ${presented}`
        }
        const header = authorization[who]
        const url = `${gateway.baseUrl}${where}${inQuery && header !== undefined ? `?auth=${encodeURIComponent(presented)}` : ""}`
        const headers = { ...extra, ...(header === undefined || inQuery ? {} : { authorization: header }) }
        const before = rows()
        const reply = await send(url, { method: verb, headers, ...(payload === undefined ? {} : { body: payload }) })
        const summary = { verb, where, who, status: reply.status }
        expect(summary).toEqual({ ...summary, status: expect.toSatisfy((s: number) => s >= 200 && s < 500) })
        if (headerBytes(extra) > headerLimitBytes) expect(summary).toEqual({ ...summary, status: 431 })
        const mediaType = reply.status === 200 ? textAnswers.get(`${verb} ${where}`) : undefined
        if (mediaType !== undefined) expect(reply.headers["content-type"]).toBe(mediaType)
        else if (reply.body !== "") expect(() => JSON.parse(reply.body)).not.toThrow()
        if (reply.status >= 400) expect(rows()).toEqual(before)
        // On the kept-alive connections of `call`: the fuzzed request had a connection of its own, which it may
        // have spoilt, and a new one per probe was half of the file's connections.
        expect((await gateway.call("GET", "/health")).status).toBe(200)
      }),
      { numRuns: 400 }
    )
  }, 120_000)
})
