import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TagStore } from "../../src/gateway/TagStore.ts"
import { type Postgres, startPostgres } from "../support/postgres.ts"
import { runGateway, spawnGateway } from "../support/spawnGateway.ts"
import { session } from "../store/storeSession.ts"

/** `gateway store copy --to URL`: a data folder's users, tokens and tags into an empty PostgreSQL database. */

let postgres: Postgres
beforeAll(async () => {
  postgres = await startPostgres()
})
afterAll(() => postgres.stop())

const folder = () => mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? "/tmp", "gateway-copy-"))
const quick = ["--port", "0", "--no-dashboard", "--no-clock"]
const withPassword = () => ({ PGPASSWORD: postgres.password })

const services = (baseUrl: string, token: string) =>
  fetch(`${baseUrl}/api/v1/services`, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.status)

const createToken = async (baseUrl: string, token: string) => {
  const response = await fetch(`${baseUrl}/api/v1/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ label: "made over HTTP" })
  })
  expect(response.status).toBe(201)
  return (await response.json()) as { readonly id: number; readonly token: string }
}

describe("gateway store copy", () => {
  it("copies users, tokens (valid, with their ids) and tags; new ids follow them; a database not empty is refused", async () => {
    // A data folder as a gateway on SQLite leaves it: its admin, the admin's token and one it created, tags.
    const dataDir = folder()
    const onSqlite = await spawnGateway(["serve", "--data", dataDir, ...quick])
    const admin = onSqlite.token ?? ""
    const created = await createToken(onSqlite.baseUrl, admin)
    await onSqlite.stop()
    await Effect.runPromise(session(dataDir, TagStore.use((tags) => tags.add("service", ["service:lamp@sim"], ["kitchen", "ground floor"]))))

    const database = await postgres.createDatabase()
    const copy = () => runGateway(["store", "copy", "--data", dataDir, "--to", postgres.url(database)], 20_000, withPassword())
    const copied = await copy()
    expect(copied.stderr).toBe("")
    expect(copied.stdout).toBe(`copied 1 users, 2 tokens and 2 tags from ${dataDir} to ${postgres.url(database)}\n`)
    expect(copied.code).toBe(0)

    const again = await copy()
    expect(again.code).toBe(1)
    expect(again.stderr).toBe(
      `gateway: cannot copy ${dataDir} to ${postgres.url(database)}: ${postgres.url(database)} is not empty ` +
        "(it holds 1 users, 2 tokens, 2 tags): copy into an empty database, made with createdb\n"
    )

    const onPostgres = await spawnGateway(["serve", "--database-url", postgres.url(database), "--data", folder(), ...quick], 20_000, withPassword())
    try {
      expect(onPostgres.token).toBeUndefined()
      expect(await services(onPostgres.baseUrl, admin)).toBe(200)
      expect(await services(onPostgres.baseUrl, created.token)).toBe(200)
      // The ids are kept (a token created by another names it by id), and new ones come after them.
      expect(postgres.query(database, "SELECT id || ' ' || coalesce(created_by::text, '-') FROM tokens ORDER BY id")).toEqual([
        expect.any(String),
        `${created.id} 1`
      ])
      expect((await createToken(onPostgres.baseUrl, admin)).id).toBe(created.id + 1)
      expect(postgres.query(database, "SELECT owner_id || ' ' || tag FROM tags ORDER BY tag")).toEqual([
        "service:lamp@sim ground floor",
        "service:lamp@sim kitchen"
      ])
    } finally {
      await onPostgres.stop()
    }
  })
})
