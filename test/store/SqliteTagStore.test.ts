import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TagStore } from "../../src/gateway/TagStore.ts"
import { Database } from "../../src/store/Database.ts"
import { carriersOf, plain, tagStoreContract } from "../gateway/TagStoreContract.ts"
import { session, tempDir } from "./storeSession.ts"

const store = Effect.service(TagStore)

/** A store of its own in a temp folder; each run opens the database anew. */
const fresh = Effect.map(tempDir, (dataDir) => <A, E>(effect: Effect.Effect<A, E, TagStore>) => session(dataDir, effect))

tagStoreContract("SqliteTagStore", fresh)

describe("SqliteTagStore", () => {
  it.effect("writes nothing when a batch fails midway", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const error = yield* session(
        dataDir,
        Effect.gen(function*() {
          const tags = yield* store
          yield* tags.add("service", ["kept"], ["before"])
          // The schema refuses the empty tag: it comes after "a"×"x" was written, inside the same transaction.
          return yield* Effect.flip(tags.add("service", ["a", "b", "c"], ["x", "", "y"]))
        })
      )
      assert.strictEqual(error.code, "SQLITE_CONSTRAINT_CHECK")
      const loaded = yield* session(dataDir, Effect.flatMap(store, (tags) => tags.load()))
      assert.deepStrictEqual(plain(loaded), { service: { kept: ["before"] }, channel: {} })
    }))

  it.effect("finds who carries a tag through the index by tag", () =>
    Effect.gen(function*() {
      yield* session(yield* tempDir, Effect.gen(function*() {
        const tags = yield* store
        yield* tags.add("service", ["carrier-1", "carrier-2"], ["porch"])
        yield* tags.add("channel", ["carrier-3"], ["porch"])
        assert.deepStrictEqual([...(yield* carriersOf(tags, "service", "porch"))].sort(), ["carrier-1", "carrier-2"])
        const db = yield* Database
        const plan = yield* db.query<{ readonly detail: string }>(
          "EXPLAIN QUERY PLAN SELECT owner_id FROM tags WHERE tag = ? AND owner_kind = ?",
          ["porch", "service"]
        )
        assert.isTrue(plan.some((step) => step.detail.includes("tags_by_tag")), JSON.stringify(plan))
      }))
    }))
})
