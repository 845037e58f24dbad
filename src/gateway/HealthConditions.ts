import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"

/** Why something the gateway depends on does not work now (an MQTT broker, the database); `None` while it works. */
export type HealthCondition = Effect.Effect<Option.Option<string>>

export interface HealthConditionsShape {
  /** Has `/health` ask `condition` until the scope closes. */
  readonly add: (condition: HealthCondition) => Effect.Effect<void, never, Scope.Scope>
  /** The reason of each condition that does not hold now, in the order they were added. */
  readonly failing: Effect.Effect<ReadonlyArray<string>>
}

/**
 * What `/health` reports as degrading the gateway, asked when it is asked: the core owns it, so that
 * the adapters and the store tell their conditions without the HTTP layer knowing them.
 */
export class HealthConditions extends Context.Service<HealthConditions, HealthConditionsShape>()("app/HealthConditions") {
  static readonly layer = Layer.sync(HealthConditions, () => {
    const conditions = new Set<HealthCondition>()
    return HealthConditions.of({
      add: (condition) =>
        Effect.acquireRelease(
          Effect.sync(() => void conditions.add(condition)),
          () => Effect.sync(() => void conditions.delete(condition))
        ),
      failing: Effect.suspend(() => Effect.forEach([...conditions], (condition) => condition)).pipe(
        Effect.map((answers) => answers.flatMap(Option.toArray))
      )
    })
  })
}
