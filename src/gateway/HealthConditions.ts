import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { isDone } from "./AlreadyDone.ts"

/**
 * Why something the gateway depends on does not work now (an MQTT broker, the database); `None` while it
 * works. Asked each time `/health` is: answered done (`Effect.succeed`) by a condition that knows it at
 * once, so that `/health` answers without a fiber; one that asks elsewhere (a query) answers with its program.
 */
export type HealthCondition = () => Effect.Effect<Option.Option<string>>

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
  /** Each condition that does not hold now, in the order they were added: done at once if every condition's answer is. */
  readonly failing: () => Effect.Effect<ReadonlyArray<FailingCondition>>
}

const noneFailing: ReadonlyArray<FailingCondition> = []
const noneFailingDone = Effect.succeed(noneFailing)

/** `found`, and the condition of `impact` if `reason` says it does not hold. */
const withReason = (found: ReadonlyArray<FailingCondition>, reason: Option.Option<string>, impact: HealthImpact) =>
  Option.isSome(reason) ? [...found, { reason: reason.value, impact }] : found

/**
 * What `/health` reports as degrading the gateway, or taking it out, asked when it is asked: the core
 * owns it, so that the adapters and the store tell their conditions without the HTTP layer knowing them.
 */
export class HealthConditions extends Context.Service<HealthConditions, HealthConditionsShape>()("app/HealthConditions") {
  static readonly layer = Layer.sync(HealthConditions, () => {
    const conditions = new Map<HealthCondition, HealthImpact>()
    // Asked on every `/health`, which probes ask often: the list is copied when a condition is added, not when asked.
    let checks: ReadonlyArray<readonly [HealthCondition, HealthImpact]> = []
    const rebuild = () => {
      checks = [...conditions]
    }
    // Each condition's answer read at once while it is done (most are), so that a `/health` whose
    // conditions all are costs no Effect step per condition; from the first that is not, one step each.
    const failingFrom = (
      asked: ReadonlyArray<readonly [HealthCondition, HealthImpact]>,
      index: number,
      found: ReadonlyArray<FailingCondition>
    ): Effect.Effect<ReadonlyArray<FailingCondition>> => {
      let failing = found
      for (let at = index;; at++) {
        const check = asked[at]
        if (check === undefined) return failing === noneFailing ? noneFailingDone : Effect.succeed(failing)
        const [condition, impact] = check
        const answer = condition()
        if (!isDone(answer)) {
          return Effect.flatMapEager(answer, (reason) => failingFrom(asked, at + 1, withReason(failing, reason, impact)))
        }
        failing = withReason(failing, answer.value, impact)
      }
    }
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
      failing: () => failingFrom(checks, 0, noneFailing)
    })
  })
}
