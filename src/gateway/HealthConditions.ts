import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"

/** Why something the gateway depends on does not work now (an MQTT broker, the database); `None` while it works. */
export type HealthCondition = Effect.Effect<Option.Option<string>>

/**
 * What a condition that does not hold does to the gateway: it `degrades` it (`/health` still 200: a
 * trouble every replica shares, or one a restart does not mend), or takes it `out` of a load
 * balancer's rotation (503: this replica cannot serve what another may, as when it lost its database).
 */
export type HealthImpact = "degrades" | "out"

/** A condition that does not hold now: its reason, one sentence, and what it does to the gateway. */
export interface FailingCondition {
  readonly reason: string
  readonly impact: HealthImpact
}

export interface HealthConditionsShape {
  /** Has `/health` ask `condition` until the scope closes; while it fails, it has `impact` (`degrades` unless told). */
  readonly add: (condition: HealthCondition, impact?: HealthImpact) => Effect.Effect<void, never, Scope.Scope>
  /** Each condition that does not hold now, in the order they were added. */
  readonly failing: Effect.Effect<ReadonlyArray<FailingCondition>>
}

/**
 * What `/health` reports as degrading the gateway, or taking it out, asked when it is asked: the core
 * owns it, so that the adapters and the store tell their conditions without the HTTP layer knowing them.
 */
export class HealthConditions extends Context.Service<HealthConditions, HealthConditionsShape>()("app/HealthConditions") {
  static readonly layer = Layer.sync(HealthConditions, () => {
    const conditions = new Map<HealthCondition, HealthImpact>()
    // Asked on every `/health`, which probes ask often: each condition's check is built once, when it is added.
    let checks: ReadonlyArray<Effect.Effect<Option.Option<FailingCondition>>> = []
    const rebuild = () => {
      checks = [...conditions].map(([condition, impact]) =>
        Effect.map(condition, Option.map((reason): FailingCondition => ({ reason, impact }))))
    }
    const failingFrom = (
      asked: ReadonlyArray<Effect.Effect<Option.Option<FailingCondition>>>,
      index: number,
      found: ReadonlyArray<FailingCondition>
    ): Effect.Effect<ReadonlyArray<FailingCondition>> => {
      const check = asked[index]
      if (check === undefined) return Effect.succeed(found)
      return Effect.flatMap(check, (failing) => failingFrom(asked, index + 1, Option.isSome(failing) ? [...found, failing.value] : found))
    }
    const noneFailing: ReadonlyArray<FailingCondition> = []
    return HealthConditions.of({
      add: (condition, impact = "degrades") =>
        Effect.acquireRelease(
          Effect.sync(() => {
            conditions.set(condition, impact)
            rebuild()
          }),
          () =>
            Effect.sync(() => {
              conditions.delete(condition)
              rebuild()
            })
        ),
      failing: Effect.suspend(() => failingFrom(checks, 0, noneFailing))
    })
  })
}
