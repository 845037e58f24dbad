import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { isDone } from "../../src/gateway/AlreadyDone.ts"
import { HealthConditions } from "../../src/gateway/HealthConditions.ts"

const holds = () => Effect.succeed(Option.none<string>())
const failsNow = (reason: string) => () => Effect.succeed(Option.some(reason))
/** A condition that asks elsewhere: its answer comes after a step of its own. */
const failsLater = (reason: string) => () => Effect.map(Effect.yieldNow, () => Option.some(reason))

describe("HealthConditions.failing", () => {
  it.effect("is done at once, with nothing failing, while every condition holds and answers at once", () =>
    Effect.gen(function*() {
      const conditions = yield* HealthConditions
      yield* conditions.add(holds)
      yield* conditions.add(holds, "out")
      const failing = conditions.failing()
      assert.isTrue(isDone(failing))
      assert.deepStrictEqual(yield* failing, [])
    }).pipe(Effect.scoped, Effect.provide(HealthConditions.layer)))

  it.effect("lists the failing conditions in the order they were added, done at once when each answer is", () =>
    Effect.gen(function*() {
      const conditions = yield* HealthConditions
      yield* conditions.add(failsNow("broker away"))
      yield* conditions.add(holds)
      yield* conditions.add(failsNow("database lost"), "out")
      const failing = conditions.failing()
      assert.isTrue(isDone(failing))
      assert.deepStrictEqual(yield* failing, [
        { reason: "broker away", impact: "degrades" },
        { reason: "database lost", impact: "out" }
      ])
    }).pipe(Effect.scoped, Effect.provide(HealthConditions.layer)))

  it.effect("waits for a condition that asks elsewhere, and keeps the order of those around it", () =>
    Effect.gen(function*() {
      const conditions = yield* HealthConditions
      yield* conditions.add(failsNow("first"))
      yield* conditions.add(failsLater("second"), "out")
      yield* conditions.add(failsNow("third"))
      const failing = conditions.failing()
      assert.isFalse(Exit.isExit(failing))
      assert.deepStrictEqual(yield* failing, [
        { reason: "first", impact: "degrades" },
        { reason: "second", impact: "out" },
        { reason: "third", impact: "degrades" }
      ])
    }).pipe(Effect.scoped, Effect.provide(HealthConditions.layer)))

  it.effect("forgets a condition when the scope that added it closes", () =>
    Effect.gen(function*() {
      const conditions = yield* HealthConditions
      yield* Effect.scoped(conditions.add(failsNow("gone")))
      assert.deepStrictEqual(yield* conditions.failing(), [])
    }).pipe(Effect.provide(HealthConditions.layer)))
})
