import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, type Scope, Stream } from "effect"
import { type OwnerKind, TagStore, type TagStoreShape, type TagsByOwner } from "../../src/gateway/TagStore.ts"

/**
 * One run of a gateway on a store's data: `effect` runs with the store; a second run on the same data
 * is a restart. `E` is what opening the store may fail with.
 */
export type StoreRun<S, E> = <A, E2>(effect: Effect.Effect<A, E2, S>) => Effect.Effect<A, E | E2>

/**
 * How a contract's tests run: `concurrent`, side by side, for a store whose fresh copy is slow to make
 * but its tests independent (PostgreSQL's: a database each, waiting mostly on the server).
 */
export interface ContractOptions {
  readonly concurrent?: boolean
}

/** TagsByOwner as plain sorted data, for comparing. */
export const plain = (tags: TagsByOwner) => ({
  service: Object.fromEntries([...tags.service].map(([id, set]) => [id, [...set].sort()])),
  channel: Object.fromEntries([...tags.channel].map(([id, set]) => [id, [...set].sort()]))
})

const store = Effect.service(TagStore)

/** The stored tags of one id, as `load` gives them. */
const tagsOf = (tags: TagStoreShape, ownerKind: OwnerKind, id: string) =>
  Effect.map(tags.load(), (loaded): ReadonlySet<string> => loaded[ownerKind].get(id) ?? new Set())

/** The stored ids of one kind that carry `tag`, as `load` gives them. */
export const carriersOf = (tags: TagStoreShape, ownerKind: OwnerKind, tag: string) =>
  Effect.map(tags.load(), (loaded): ReadonlySet<string> =>
    new Set([...loaded[ownerKind]].filter(([, carried]) => carried.has(tag)).map(([id]) => id)))

/**
 * What every TagStore does, whatever keeps the tags: the SQLite store (test/store) and the one in memory
 * (test/support/InMemoryStores.ts) both run it. `fresh` makes a new, empty store for the test's scope.
 */
export const tagStoreContract = <E>(
  name: string,
  fresh: Effect.Effect<StoreRun<TagStore, E>, never, Scope.Scope>,
  { concurrent = false }: ContractOptions = {}
) =>
  (concurrent ? describe.concurrent : describe)(`${name}, as every TagStore`, () => {
    /** One run on a fresh store. */
    const onFresh = <A, E2>(effect: Effect.Effect<A, E2, TagStore>) => Effect.flatMap(fresh, (run) => run(effect))

    it.effect("keeps tags across a restart", () =>
      Effect.gen(function*() {
        const run = yield* fresh
        yield* run(
          Effect.gen(function*() {
            const tags = yield* store
            yield* tags.add("service", ["service:lamp@sim", "service:door@sim"], ["kitchen", "ground floor"])
            yield* tags.add("channel", ["getter:on@sim"], ["lights"])
            yield* tags.remove("service", ["service:door@sim"], ["kitchen"])
          })
        )
        const { loaded, lamp } = yield* run(
          Effect.gen(function*() {
            const tags = yield* store
            return { loaded: yield* tags.load(), lamp: yield* tagsOf(tags, "service", "service:lamp@sim") }
          })
        )
        assert.deepStrictEqual(plain(loaded), {
          service: { "service:lamp@sim": ["ground floor", "kitchen"], "service:door@sim": ["ground floor"] },
          channel: { "getter:on@sim": ["lights"] }
        })
        assert.deepStrictEqual([...lamp].sort(), ["ground floor", "kitchen"])
      }))

    it.effect("add is idempotent: tags already there stay, once", () =>
      onFresh(Effect.gen(function*() {
        const tags = yield* store
        assert.strictEqual(yield* tags.add("service", ["idem-1", "idem-2"], ["a", "b"]), 4)
        assert.strictEqual(yield* tags.add("service", ["idem-1", "idem-2"], ["b", "a", "a"]), 0)
        assert.strictEqual(yield* tags.add("service", ["idem-1"], ["c"]), 1)
        assert.deepStrictEqual([...(yield* tagsOf(tags, "service", "idem-1"))].sort(), ["a", "b", "c"])
        assert.deepStrictEqual([...(yield* tagsOf(tags, "service", "idem-2"))].sort(), ["a", "b"])
      })))

    it.effect("removing tags that are not there is fine and touches nothing else", () =>
      onFresh(Effect.gen(function*() {
        const tags = yield* store
        yield* tags.add("channel", ["absent-1"], ["kept"])
        assert.strictEqual(yield* tags.remove("channel", ["absent-1", "absent-2"], ["never-added"]), 0)
        assert.strictEqual(yield* tags.remove("channel", ["absent-2"], ["kept"]), 0)
        assert.deepStrictEqual([...(yield* tagsOf(tags, "channel", "absent-1"))], ["kept"])
        assert.strictEqual(yield* tags.remove("channel", ["absent-1"], ["kept"]), 1)
        assert.strictEqual((yield* tagsOf(tags, "channel", "absent-1")).size, 0)
      })))

    it.effect("keeps the two owner kinds apart", () =>
      onFresh(Effect.gen(function*() {
        const tags = yield* store
        yield* tags.add("service", ["kinds"], ["as-service"])
        yield* tags.add("channel", ["kinds"], ["as-channel"])
        yield* tags.remove("channel", ["kinds"], ["as-service"])
        assert.deepStrictEqual([...(yield* tagsOf(tags, "service", "kinds"))], ["as-service"])
        assert.deepStrictEqual([...(yield* tagsOf(tags, "channel", "kinds"))], ["as-channel"])
        const loaded = yield* tags.load()
        assert.deepStrictEqual([...(loaded.service.get("kinds") ?? [])], ["as-service"])
        assert.deepStrictEqual([...(loaded.channel.get("kinds") ?? [])], ["as-channel"])
      })))

    it.effect("takes thousands of ids × tags in one call", () =>
      onFresh(Effect.gen(function*() {
        const tags = yield* store
        const ids = Array.from({ length: 3000 }, (_, i) => `bulk-${i}`)
        const labels = ["b1", "b2", "b3", "b4"]
        assert.strictEqual(yield* tags.add("channel", ids, labels), 12_000)
        assert.strictEqual((yield* carriersOf(tags, "channel", "b3")).size, 3000)
        assert.strictEqual(yield* tags.remove("channel", ids, ["b1", "b2"]), 6000)
        assert.strictEqual((yield* carriersOf(tags, "channel", "b1")).size, 0)
        assert.deepStrictEqual([...(yield* tagsOf(tags, "channel", "bulk-2999"))].sort(), ["b3", "b4"])
      })))

    it.effect("does nothing for an empty list of ids or tags", () =>
      onFresh(Effect.gen(function*() {
        const tags = yield* store
        assert.strictEqual(yield* tags.add("service", [], ["x"]), 0)
        assert.strictEqual(yield* tags.add("service", ["empty-lists"], []), 0)
        assert.strictEqual((yield* tagsOf(tags, "service", "empty-lists")).size, 0)
      })))

    // Live: it waits, on the clock, for what a database would tell back.
    it.live("gives none of the changes made through it on its change feed: their callers apply them", () =>
      onFresh(Effect.scoped(Effect.gen(function*() {
        const tags = yield* store
        const changes = yield* tags.changes
        yield* tags.add("service", ["fed-1", "fed-2"], ["porch"])
        yield* tags.remove("service", ["fed-2"], ["porch", "never-added"])
        // Long enough for a change told through a database to come back.
        const told = yield* Stream.runCollect(Stream.take(changes, 1)).pipe(Effect.timeoutOption("300 millis"))
        assert.isTrue(Option.isNone(told))
      }))))

    it.effect("loads an empty store as two empty maps", () =>
      Effect.gen(function*() {
        const loaded = yield* onFresh(Effect.flatMap(store, (tags) => tags.load()))
        assert.deepStrictEqual(plain(loaded), { service: {}, channel: {} })
      }))
  })
