import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Database } from "../../src/store/Database.ts"
import { tokensOfUser } from "../../src/store/SqliteTokenStore.ts"
import { session, tempDir } from "./storeSession.ts"

/**
 * A user's listing costs in proportion to the page it reads, not to every token kept (issue 34, item 2):
 * SQLite reads it as a range of the index by user, in id order, and looks up the user by its key.
 */
describe("the listing of one user's tokens", () => {
  it.effect("is a range of the index by user, read in id order: no scan of the tokens, no sort", () =>
    Effect.gen(function*() {
      const plan = yield* session(
        yield* tempDir,
        Effect.flatMap(Database, (db) => db.query<{ readonly detail: string }>(`EXPLAIN QUERY PLAN ${tokensOfUser}`, [1, 0, 100]))
      )
      // Every step is one of these: any other (a SCAN, a TEMP B-TREE for the order) would read past the page.
      assert.deepStrictEqual(plan.map((step) => step.detail).sort(), [
        "SEARCH t USING INDEX tokens_by_user (user_id=? AND rowid>?)",
        "SEARCH u USING INTEGER PRIMARY KEY (rowid=?)"
      ])
    }))
})
