import { assert, describe, it } from "@effect/vitest"
import { Effect, type Scope } from "effect"
import { LoginFailures } from "../../src/auth/LoginFailures.ts"
import type { ContractOptions, StoreRun } from "../gateway/TagStoreContract.ts"

const minute = 60_000
/** A window to wait out: long enough for the calls made within it on a busy machine. */
const shortWindow = 1_000
const generous = { pair: 10, user: 10, address: 10 }

/**
 * What every LoginFailures does, whatever keeps the counts: the one in memory (test/auth) and
 * PostgreSQL's (test/store) both run it. `fresh` makes new, empty counts for the test's scope.
 */
export const loginFailuresContract = <E>(
  name: string,
  fresh: Effect.Effect<StoreRun<LoginFailures, E>, never, Scope.Scope>,
  { concurrent = false }: ContractOptions = {}
) =>
  (concurrent ? describe.concurrent : describe)(`${name}, as every LoginFailures`, () => {
    const onFresh = <A, E2>(effect: Effect.Effect<A, E2, LoginFailures>) => Effect.flatMap(fresh, (run) => run(effect))
    const failures = Effect.service(LoginFailures)

    it.effect("counts a failure against its pair, its user from every address and its address, each up to its limit", () =>
      onFresh(Effect.gen(function*() {
        const counts = yield* failures
        for (const [username, address] of [["bob", "A"], ["bob", "A"], ["bob", "A"], ["bob", "B"], ["carol", "A"]] as const) {
          yield* counts.add(username, address, false, minute)
        }
        const bob = yield* counts.tally("bob", "A", { pair: 2, user: 10, address: 10 }, minute)
        assert.deepStrictEqual([bob.pair.failures, bob.user.failures, bob.address.failures], [2, 4, 4])
        const carol = yield* counts.tally("carol", "B", generous, minute)
        assert.deepStrictEqual([carol.pair.failures, carol.user.failures, carol.address.failures], [0, 1, 1])
        const nobody = yield* counts.tally("dave", "C", generous, minute)
        assert.deepStrictEqual(nobody, { pair: { failures: 0, oldestLeavesInMs: 0 }, user: { failures: 0, oldestLeavesInMs: 0 }, address: { failures: 0, oldestLeavesInMs: 0 } })
      })))

    it.live("tells in how many ms the oldest failure counted leaves the window", () =>
      onFresh(Effect.gen(function*() {
        const counts = yield* failures
        yield* counts.add("bob", "A", false, minute)
        yield* Effect.sleep("400 millis")
        yield* counts.add("bob", "A", false, minute)
        // One reading: the pair's limit of one counts the newest only, the user's of two both.
        const { pair, user } = yield* counts.tally("bob", "A", { pair: 1, user: 2, address: 10 }, minute)
        assert.isAbove(user.oldestLeavesInMs, minute - 5_000)
        assert.isAtMost(pair.oldestLeavesInMs, minute)
        assert.isAtLeast(pair.oldestLeavesInMs - user.oldestLeavesInMs, 350)
      })))

    it.effect("no longer counts a pair's failures against it or its user once cleared, but still against the address", () =>
      onFresh(Effect.gen(function*() {
        const counts = yield* failures
        yield* counts.add("bob", "A", false, minute)
        yield* counts.add("bob", "A", false, minute)
        yield* counts.clear("bob", "A")
        yield* counts.add("bob", "A", true, minute)
        yield* counts.add("bob", "B", false, minute)
        const bob = yield* counts.tally("bob", "A", generous, minute)
        assert.deepStrictEqual([bob.pair.failures, bob.user.failures, bob.address.failures], [0, 1, 3])
      })))

    it.live("forgets failures older than the window", () =>
      onFresh(Effect.gen(function*() {
        const counts = yield* failures
        yield* counts.add("bob", "A", false, shortWindow)
        assert.strictEqual((yield* counts.tally("bob", "A", generous, shortWindow)).address.failures, 1)
        yield* Effect.sleep(shortWindow + 200)
        const later = yield* counts.tally("bob", "A", generous, shortWindow)
        assert.deepStrictEqual([later.pair.failures, later.user.failures, later.address.failures], [0, 0, 0])
      })))
  })
