import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, type Scope } from "effect"
import { type TokenKind, TokenStore } from "../../src/auth/TokenStore.ts"
import { type StoredUser, UserStore } from "../../src/auth/UserStore.ts"
import type { ContractOptions, StoreRun } from "../gateway/TagStoreContract.ts"

const someone = (username: string): Omit<StoredUser, "id"> => ({ username, email: `${username}@example.org`, passwordHash: "scrypt$…", createdAt: 1_000 })

const aToken = (
  userId: number,
  tokenHash: string,
  more: { readonly kind?: TokenKind; readonly expiresAt?: number | null; readonly createdBy?: number } = {}
) => ({
  tokenHash,
  userId,
  kind: more.kind ?? "api",
  label: "test",
  scope: null,
  createdAt: 2_000,
  expiresAt: more.expiresAt ?? null,
  createdBy: more.createdBy ?? null
})

/** A page that holds every token of these tests. */
const everything = { after: 0, limit: 1_000 }

/** A user kept in `users`, as the tests need one. */
const keptUser = (username: string) =>
  Effect.flatMap(UserStore.use((users) => users.insert(someone(username))), Effect.fromOption)

/**
 * What every UserStore and TokenStore do together, whatever keeps them: the SQLite stores (test/store)
 * and the ones in memory (test/support/InMemoryStores.ts) both run it. `fresh` makes new, empty stores
 * for the test's scope.
 */
export const authStoreContract = <E>(
  name: string,
  fresh: Effect.Effect<StoreRun<UserStore | TokenStore, E>, never, Scope.Scope>,
  { concurrent = false }: ContractOptions = {}
) =>
  (concurrent ? describe.concurrent : describe)(`${name}, as every UserStore and TokenStore`, () => {
    const onFresh = <A, E2>(effect: Effect.Effect<A, E2, UserStore | TokenStore>) => Effect.flatMap(fresh, (run) => run(effect))

    it.effect("keeps a user under a new id, finds it by name, and refuses its name twice", () =>
      onFresh(Effect.gen(function*() {
        const users = yield* UserStore
        const ann = yield* Effect.flatMap(users.insert(someone("ann")), Effect.fromOption)
        const bob = yield* Effect.flatMap(users.insert(someone("bob")), Effect.fromOption)
        assert.notStrictEqual(ann.id, bob.id)
        assert.deepStrictEqual(ann, { ...someone("ann"), id: ann.id })
        assert.deepStrictEqual(yield* users.byName("ann"), Option.some(ann))
        assert.isTrue(Option.isNone(yield* users.insert({ ...someone("ann"), email: "other@example.org" })))
        assert.isTrue(Option.isNone(yield* users.byName("carol")))
        assert.strictEqual(yield* users.count, 2)
      })))

    it.effect("keeps the first user only while there is none", () =>
      onFresh(Effect.gen(function*() {
        const users = yield* UserStore
        assert.isTrue(Option.isSome(yield* users.insertFirst(someone("admin"))))
        assert.isTrue(Option.isNone(yield* users.insertFirst(someone("second"))))
        assert.deepStrictEqual((yield* users.list).map((u) => u.username), ["admin"])
      })))

    it.effect("lists users by name, and changes a password hash of a user that exists", () =>
      onFresh(Effect.gen(function*() {
        const users = yield* UserStore
        for (const name of ["carol", "ann", "bob"]) yield* users.insert(someone(name))
        assert.deepStrictEqual((yield* users.list).map((u) => u.username), ["ann", "bob", "carol"])
        assert.isTrue(yield* users.setPasswordHash("bob", "scrypt$new"))
        assert.isFalse(yield* users.setPasswordHash("dave", "scrypt$new"))
        assert.strictEqual(Option.map(yield* users.byName("bob"), (u) => u.passwordHash).pipe(Option.getOrNull), "scrypt$new")
      })))

    it.effect("keeps tokens under new ids, finds one by hash with its user's name, and lists them by id", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const bob = yield* keptUser("bob")
        const tokens = yield* TokenStore
        const first = yield* tokens.insert(aToken(bob.id, "b".repeat(64)))
        const second = yield* tokens.insert(aToken(ann.id, "a".repeat(64), { kind: "session", expiresAt: 9_000 }))
        assert.notStrictEqual(first, second)
        assert.deepStrictEqual(yield* tokens.byHash("a".repeat(64)), Option.some({
          ...aToken(ann.id, "a".repeat(64), { kind: "session", expiresAt: 9_000 }),
          id: second,
          revokedAt: null,
          lastUsedAt: null,
          username: "ann"
        }))
        assert.isTrue(Option.isNone(yield* tokens.byHash("c".repeat(64))))
        assert.deepStrictEqual((yield* tokens.list(everything)).map((t) => [t.id, t.username]), [[first, "bob"], [second, "ann"]])
      })))

    it.effect("finds a token by id with its user's name", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const tokens = yield* TokenStore
        const id = yield* tokens.insert(aToken(ann.id, "a".repeat(64)))
        assert.deepStrictEqual(Option.map(yield* tokens.byId(id), (t) => [t.tokenHash, t.username]), Option.some(["a".repeat(64), "ann"]))
        assert.isTrue(Option.isNone(yield* tokens.byId(id + 1)))
      })))

    it.effect("lists tokens a page at a time: those above `after`, by id, at most `limit`", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const bob = yield* keptUser("bob")
        const tokens = yield* TokenStore
        const ids: Array<number> = []
        for (let i = 0; i < 5; i++) ids.push(yield* tokens.insert(aToken(i % 2 === 0 ? ann.id : bob.id, String(i).repeat(64))))
        const idsOf = (listed: ReadonlyArray<{ readonly id: number }>) => listed.map((t) => t.id)
        assert.deepStrictEqual(idsOf(yield* tokens.list({ after: 0, limit: 2 })), ids.slice(0, 2))
        assert.deepStrictEqual(idsOf(yield* tokens.list({ after: ids[1] ?? 0, limit: 2 })), ids.slice(2, 4))
        assert.deepStrictEqual(idsOf(yield* tokens.list({ after: ids[3] ?? 0, limit: 2 })), ids.slice(4))
        assert.deepStrictEqual(idsOf(yield* tokens.list({ after: ids[4] ?? 0, limit: 2 })), [])
      })))

    it.effect("lists one user's tokens a page at a time, none of another user's", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const bob = yield* keptUser("bob")
        const tokens = yield* TokenStore
        const anns: Array<number> = []
        for (let i = 0; i < 6; i++) {
          const id = yield* tokens.insert(aToken(i % 3 === 0 ? ann.id : bob.id, String(i).repeat(64)))
          if (i % 3 === 0) anns.push(id)
        }
        const first = yield* tokens.listOf(ann.id, { after: 0, limit: 1 })
        assert.deepStrictEqual(first.map((t) => [t.id, t.username]), [[anns[0], "ann"]])
        assert.deepStrictEqual((yield* tokens.listOf(ann.id, { after: first[0]?.id ?? 0, limit: 5 })).map((t) => t.id), anns.slice(1))
        assert.deepStrictEqual((yield* tokens.listOf(bob.id, everything)).map((t) => t.username), ["bob", "bob", "bob", "bob"])
        assert.deepStrictEqual(yield* tokens.listOf(bob.id + ann.id + 1, everything), [])
      })))

    it.effect("revokes a token once, records its last use, and tells until when it is good", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const tokens = yield* TokenStore
        const forever = yield* tokens.insert(aToken(ann.id, "f".repeat(64)))
        const expiring = yield* tokens.insert(aToken(ann.id, "e".repeat(64), { expiresAt: 5_000 }))
        assert.deepStrictEqual(yield* tokens.validUntil(forever, 3_000), Option.some(Number.POSITIVE_INFINITY))
        assert.deepStrictEqual(yield* tokens.validUntil(expiring, 3_000), Option.some(5_000))
        assert.isTrue(Option.isNone(yield* tokens.validUntil(expiring, 5_000)))
        yield* tokens.touch(forever, 3_500)
        assert.isTrue(yield* tokens.revoke(forever, 4_000))
        assert.isTrue(yield* tokens.revoke(forever, 4_500))
        assert.isFalse(yield* tokens.revoke(999, 4_000))
        assert.isTrue(Option.isNone(yield* tokens.validUntil(forever, 4_000)))
        const kept = yield* Effect.flatMap(tokens.byHash("f".repeat(64)), Effect.fromOption)
        assert.deepStrictEqual([kept.revokedAt, kept.lastUsedAt], [4_000, 3_500])
        assert.isTrue(Option.isNone(yield* tokens.validUntil(999, 0)))
      })))

    it.effect("revokes the sessions of one user, not its API tokens nor another's sessions", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const bob = yield* keptUser("bob")
        const tokens = yield* TokenStore
        const annSession = yield* tokens.insert(aToken(ann.id, "1".repeat(64), { kind: "session" }))
        const annApi = yield* tokens.insert(aToken(ann.id, "2".repeat(64)))
        const bobSession = yield* tokens.insert(aToken(bob.id, "3".repeat(64), { kind: "session" }))
        assert.strictEqual(yield* tokens.revokeSessionsOf(ann.id, 7_000), 1)
        assert.strictEqual(yield* tokens.revokeSessionsOf(ann.id, 8_000), 0)
        const revoked = new Map((yield* tokens.list(everything)).map((t) => [t.id, t.revokedAt]))
        assert.deepStrictEqual([revoked.get(annSession), revoked.get(annApi), revoked.get(bobSession)], [7_000, null, null])
      })))

    it.effect("revokes a token with every token it created, down every generation, and nothing else", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const tokens = yield* TokenStore
        const parent = yield* tokens.insert(aToken(ann.id, "1".repeat(64)))
        const child = yield* tokens.insert(aToken(ann.id, "2".repeat(64), { createdBy: parent }))
        const sibling = yield* tokens.insert(aToken(ann.id, "3".repeat(64)))
        const grandchild = yield* tokens.insert(aToken(ann.id, "4".repeat(64), { createdBy: child }))
        const nephew = yield* tokens.insert(aToken(ann.id, "5".repeat(64), { createdBy: sibling }))
        // A child revoked before keeps its time, and what it created is still reached through it.
        yield* tokens.revoke(child, 5_000)
        assert.deepStrictEqual(yield* tokens.revokeWithCreated(parent, 6_000), [parent, child, grandchild])
        const revoked = new Map((yield* tokens.list(everything)).map((t) => [t.id, t.revokedAt]))
        assert.deepStrictEqual([parent, child, grandchild, sibling, nephew].map((id) => revoked.get(id)), [6_000, 5_000, 6_000, null, null])
        assert.deepStrictEqual(yield* tokens.revokeWithCreated(999, 6_000), [])
        assert.strictEqual(Option.map(yield* tokens.byHash("4".repeat(64)), (t) => t.createdBy).pipe(Option.getOrNull), child)
      })))

    it.effect("counts a user's live API tokens: not its sessions, nor revoked or expired ones, nor another's", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const bob = yield* keptUser("bob")
        const tokens = yield* TokenStore
        yield* tokens.insert(aToken(ann.id, "1".repeat(64)))
        yield* tokens.insert(aToken(ann.id, "2".repeat(64), { expiresAt: 9_000 }))
        yield* tokens.insert(aToken(ann.id, "3".repeat(64), { expiresAt: 5_000 }))
        yield* tokens.insert(aToken(ann.id, "4".repeat(64), { kind: "session" }))
        yield* tokens.revoke(yield* tokens.insert(aToken(ann.id, "5".repeat(64))), 1_000)
        yield* tokens.insert(aToken(bob.id, "6".repeat(64)))
        assert.strictEqual(yield* tokens.liveApiTokensOf(ann.id, 5_000), 2)
        assert.strictEqual(yield* tokens.liveApiTokensOf(ann.id, 9_000), 1)
      })))

    it.effect("finds a user's live comparison tokens: not its other tokens, nor revoked or expired ones, nor another's", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const bob = yield* keptUser("bob")
        const tokens = yield* TokenStore
        const live = yield* tokens.insert(aToken(ann.id, "1".repeat(64), { kind: "comparison", expiresAt: 9_000 }))
        yield* tokens.insert(aToken(ann.id, "2".repeat(64), { kind: "comparison", expiresAt: 5_000 }))
        yield* tokens.revoke(yield* tokens.insert(aToken(ann.id, "3".repeat(64), { kind: "comparison" })), 1_000)
        yield* tokens.insert(aToken(ann.id, "4".repeat(64)))
        yield* tokens.insert(aToken(bob.id, "5".repeat(64), { kind: "comparison" }))
        assert.deepStrictEqual(yield* tokens.liveComparisonsOf(ann.id, 6_000), [live])
      })))

    it.effect("forgets a removed user's tokens with it", () =>
      onFresh(Effect.gen(function*() {
        const ann = yield* keptUser("ann")
        const bob = yield* keptUser("bob")
        const tokens = yield* TokenStore
        const annToken = yield* tokens.insert(aToken(ann.id, "a".repeat(64)))
        yield* tokens.insert(aToken(bob.id, "b".repeat(64)))
        const users = yield* UserStore
        assert.isTrue(yield* users.remove("ann"))
        assert.isFalse(yield* users.remove("ann"))
        assert.isTrue(Option.isNone(yield* tokens.byHash("a".repeat(64))))
        assert.isTrue(Option.isNone(yield* tokens.validUntil(annToken, 0)))
        assert.deepStrictEqual((yield* tokens.list(everything)).map((t) => t.username), ["bob"])
        assert.strictEqual(yield* users.count, 1)
      })))

    it.effect("replaces its generation on every change, and only then", () =>
      onFresh(Effect.gen(function*() {
        const tokens = yield* TokenStore
        const users = yield* UserStore
        const before = tokens.generation()
        assert.strictEqual(tokens.generation(), before)
        const ann = yield* keptUser("ann")
        const afterUser = tokens.generation()
        assert.notStrictEqual(afterUser, before)
        const id = yield* tokens.insert(aToken(ann.id, "a".repeat(64)))
        const afterToken = tokens.generation()
        assert.notStrictEqual(afterToken, afterUser)
        yield* tokens.revoke(id, 1)
        const afterRevoke = tokens.generation()
        assert.notStrictEqual(afterRevoke, afterToken)
        yield* tokens.revokeWithCreated(id, 2)
        const afterCascade = tokens.generation()
        assert.notStrictEqual(afterCascade, afterRevoke)
        yield* users.remove("ann")
        assert.notStrictEqual(tokens.generation(), afterCascade)
      })))

    it.effect("keeps users and tokens across a restart", () =>
      Effect.gen(function*() {
        const run = yield* fresh
        const id = yield* run(Effect.flatMap(keptUser("ann"), (ann) => TokenStore.use((tokens) => tokens.insert(aToken(ann.id, "a".repeat(64))))))
        const found = yield* run(TokenStore.use((tokens) => tokens.byHash("a".repeat(64))))
        assert.deepStrictEqual(Option.map(found, (t) => [t.id, t.username]), Option.some([id, "ann"]))
      }))
  })
