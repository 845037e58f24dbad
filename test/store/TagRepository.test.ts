import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Database } from "../../src/store/Database.ts"
import { type OwnerKind, TagRepository, type TagRepositoryShape, type TagsByOwner } from "../../src/store/TagRepository.ts"
import { session, storeAt, tempDir } from "./storeSession.ts"

/** TagsByOwner as plain sorted data, for comparing. */
const plain = (tags: TagsByOwner) => ({
  service: Object.fromEntries([...tags.service].map(([id, set]) => [id, [...set].sort()])),
  channel: Object.fromEntries([...tags.channel].map(([id, set]) => [id, [...set].sort()]))
})

const repository = Effect.service(TagRepository)

/** The stored tags of one id, as `load` gives them. */
const tagsOf = (tags: TagRepositoryShape, ownerKind: OwnerKind, id: string) =>
  Effect.map(tags.load(), (loaded): ReadonlySet<string> => loaded[ownerKind].get(id) ?? new Set())

/** The stored ids of one kind that carry `tag`, as `load` gives them. */
const carriersOf = (tags: TagRepositoryShape, ownerKind: OwnerKind, tag: string) =>
  Effect.map(tags.load(), (loaded): ReadonlySet<string> =>
    new Set([...loaded[ownerKind]].filter(([, carried]) => carried.has(tag)).map(([id]) => id)))

/** A store of its own in a temp folder, shared by the tests of one block (each uses its own ids). */
const sharedStore = Layer.unwrap(Effect.map(tempDir, storeAt))

describe("TagRepository", () => {
  it.effect("keeps tags across a restart", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      yield* session(
        dataDir,
        Effect.gen(function*() {
          const tags = yield* repository
          yield* tags.add("service", ["service:lamp@sim", "service:door@sim"], ["kitchen", "ground floor"])
          yield* tags.add("channel", ["getter:on@sim"], ["lights"])
          yield* tags.remove("service", ["service:door@sim"], ["kitchen"])
        })
      )
      const { loaded, lamp } = yield* session(
        dataDir,
        Effect.gen(function*() {
          const tags = yield* repository
          return { loaded: yield* tags.load(), lamp: yield* tagsOf(tags, "service", "service:lamp@sim") }
        })
      )
      assert.deepStrictEqual(plain(loaded), {
        service: { "service:lamp@sim": ["ground floor", "kitchen"], "service:door@sim": ["ground floor"] },
        channel: { "getter:on@sim": ["lights"] }
      })
      assert.deepStrictEqual([...lamp].sort(), ["ground floor", "kitchen"])
    }))

  it.effect("writes nothing when a batch fails midway", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const error = yield* session(
        dataDir,
        Effect.gen(function*() {
          const tags = yield* repository
          yield* tags.add("service", ["kept"], ["before"])
          // The schema refuses the empty tag: it comes after "a"×"x" was written, inside the same transaction.
          return yield* Effect.flip(tags.add("service", ["a", "b", "c"], ["x", "", "y"]))
        })
      )
      assert.strictEqual(error.code, "SQLITE_CONSTRAINT_CHECK")
      const loaded = yield* session(dataDir, Effect.flatMap(repository, (tags) => tags.load()))
      assert.deepStrictEqual(plain(loaded), { service: { kept: ["before"] }, channel: {} })
    }))

  layer(sharedStore)("on a running store", (it) => {
    it.effect("add is idempotent: tags already there stay, once", () =>
      Effect.gen(function*() {
        const tags = yield* repository
        assert.strictEqual(yield* tags.add("service", ["idem-1", "idem-2"], ["a", "b"]), 4)
        assert.strictEqual(yield* tags.add("service", ["idem-1", "idem-2"], ["b", "a", "a"]), 0)
        assert.strictEqual(yield* tags.add("service", ["idem-1"], ["c"]), 1)
        assert.deepStrictEqual([...(yield* tagsOf(tags, "service", "idem-1"))].sort(), ["a", "b", "c"])
        assert.deepStrictEqual([...(yield* tagsOf(tags, "service", "idem-2"))].sort(), ["a", "b"])
      }))

    it.effect("removing tags that are not there is fine and touches nothing else", () =>
      Effect.gen(function*() {
        const tags = yield* repository
        yield* tags.add("channel", ["absent-1"], ["kept"])
        assert.strictEqual(yield* tags.remove("channel", ["absent-1", "absent-2"], ["never-added"]), 0)
        assert.strictEqual(yield* tags.remove("channel", ["absent-2"], ["kept"]), 0)
        assert.deepStrictEqual([...(yield* tagsOf(tags, "channel", "absent-1"))], ["kept"])
        assert.strictEqual(yield* tags.remove("channel", ["absent-1"], ["kept"]), 1)
        assert.strictEqual((yield* tagsOf(tags, "channel", "absent-1")).size, 0)
      }))

    it.effect("keeps the two owner kinds apart", () =>
      Effect.gen(function*() {
        const tags = yield* repository
        yield* tags.add("service", ["kinds"], ["as-service"])
        yield* tags.add("channel", ["kinds"], ["as-channel"])
        yield* tags.remove("channel", ["kinds"], ["as-service"])
        assert.deepStrictEqual([...(yield* tagsOf(tags, "service", "kinds"))], ["as-service"])
        assert.deepStrictEqual([...(yield* tagsOf(tags, "channel", "kinds"))], ["as-channel"])
        const loaded = yield* tags.load()
        assert.deepStrictEqual([...(loaded.service.get("kinds") ?? [])], ["as-service"])
        assert.deepStrictEqual([...(loaded.channel.get("kinds") ?? [])], ["as-channel"])
      }))

    it.effect("takes thousands of ids × tags in one call", () =>
      Effect.gen(function*() {
        const tags = yield* repository
        const ids = Array.from({ length: 3000 }, (_, i) => `bulk-${i}`)
        const labels = ["b1", "b2", "b3", "b4"]
        assert.strictEqual(yield* tags.add("channel", ids, labels), 12_000)
        assert.strictEqual((yield* carriersOf(tags, "channel", "b3")).size, 3000)
        assert.strictEqual(yield* tags.remove("channel", ids, ["b1", "b2"]), 6000)
        assert.strictEqual((yield* carriersOf(tags, "channel", "b1")).size, 0)
        assert.deepStrictEqual([...(yield* tagsOf(tags, "channel", "bulk-2999"))].sort(), ["b3", "b4"])
      }))

    it.effect("finds who carries a tag through the index by tag", () =>
      Effect.gen(function*() {
        const tags = yield* repository
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

    it.effect("does nothing for an empty list of ids or tags", () =>
      Effect.gen(function*() {
        const tags = yield* repository
        assert.strictEqual(yield* tags.add("service", [], ["x"]), 0)
        assert.strictEqual(yield* tags.add("service", ["empty-lists"], []), 0)
        assert.strictEqual((yield* tagsOf(tags, "service", "empty-lists")).size, 0)
      }))
  })

  it.effect("loads an empty store as two empty maps", () =>
    Effect.gen(function*() {
      const loaded = yield* session(yield* tempDir, Effect.flatMap(repository, (tags) => tags.load()))
      assert.deepStrictEqual(plain(loaded), { service: {}, channel: {} })
    }))
})
