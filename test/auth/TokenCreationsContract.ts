import { assert, describe, it } from "@effect/vitest"
import { Effect, Result, type Scope } from "effect"
import { TokenCreations } from "../../src/auth/TokenCreations.ts"
import type { ContractOptions, StoreRun } from "../gateway/TagStoreContract.ts"

const minute = 60_000
/** A window to wait out: long enough for the calls made within it on a busy machine. */
const shortWindow = 1_000

/**
 * What every TokenCreations does, whatever keeps the counts: the one in memory (test/auth) and
 * PostgreSQL's (test/store) both run it. `fresh` makes new, empty counts for the test's scope.
 */
export const tokenCreationsContract = <E>(
  name: string,
  fresh: Effect.Effect<StoreRun<TokenCreations, E>, never, Scope.Scope>,
  { concurrent = false }: ContractOptions = {}
) =>
  (concurrent ? describe.concurrent : describe)(`${name}, as every TokenCreations`, () => {
    const onFresh = <A, E2>(effect: Effect.Effect<A, E2, TokenCreations>) => Effect.flatMap(fresh, (run) => run(effect))
    const creations = Effect.service(TokenCreations)

    it.effect("holds places up to the limit, then answers when the oldest leaves the window; another user has places of its own", () =>
      onFresh(Effect.gen(function*() {
        const counts = yield* creations
        for (let i = 0; i < 3; i++) assert.isTrue(Result.isSuccess(yield* counts.hold("ann", 3, minute)))
        const refused = yield* counts.hold("ann", 3, minute)
        assert.isTrue(Result.isFailure(refused))
        if (Result.isFailure(refused)) {
          assert.isAbove(refused.failure, minute - 5_000)
          assert.isAtMost(refused.failure, minute)
        }
        assert.isTrue(Result.isSuccess(yield* counts.hold("bob", 3, minute)))
      })))

    it.effect("lets a place given back be held again", () =>
      onFresh(Effect.gen(function*() {
        const counts = yield* creations
        const first = yield* counts.hold("ann", 2, minute)
        assert.isTrue(Result.isSuccess(yield* counts.hold("ann", 2, minute)))
        assert.isTrue(Result.isFailure(yield* counts.hold("ann", 2, minute)))
        if (Result.isSuccess(first)) yield* first.success
        assert.isTrue(Result.isSuccess(yield* counts.hold("ann", 2, minute)))
        assert.isTrue(Result.isFailure(yield* counts.hold("ann", 2, minute)))
      })))

    it.effect("counts places asked for at once as if asked one after the other", () =>
      onFresh(Effect.gen(function*() {
        const counts = yield* creations
        const answers = yield* Effect.all(Array.from({ length: 20 }, () => counts.hold("ann", 5, minute)), { concurrency: "unbounded" })
        assert.strictEqual(answers.filter(Result.isSuccess).length, 5)
      })))

    it.live("forgets places older than the window", () =>
      onFresh(Effect.gen(function*() {
        const counts = yield* creations
        assert.isTrue(Result.isSuccess(yield* counts.hold("ann", 1, shortWindow)))
        assert.isTrue(Result.isFailure(yield* counts.hold("ann", 1, shortWindow)))
        yield* Effect.sleep(shortWindow + 200)
        assert.isTrue(Result.isSuccess(yield* counts.hold("ann", 1, shortWindow)))
      })))
  })
