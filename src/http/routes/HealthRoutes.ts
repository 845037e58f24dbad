import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Health, health } from "../../api/Health.ts"
import { type FailingCondition, HealthConditions } from "../../gateway/HealthConditions.ts"
import { HomeFileStatus } from "../../gateway/HomeFileStatus.ts"
import { Registry } from "../../gateway/Registry.ts"
import { gatewayVersion } from "../../Version.ts"
import { bindGroup } from "../routing/Handlers.ts"
import { ServiceUnavailable } from "../routing/HttpError.ts"

/** Why a refused home file change degrades the gateway. */
const refusedHomeChange = "the last change of the home file was refused; the home before it is still served"

/**
 * All is well. One value, always the same: its answer is written once (Handlers: the same value as the last
 * answer is the same response), which probes asking many times a second notice.
 */
const ok: Health = { status: "ok" }

/** All is well, as a done answer: made once, like `ok`. */
const allWell = Effect.succeed(ok)

/**
 * Exactly `{"status": "ok"}` when all is well, so that simple probes can compare the body; otherwise
 * the reasons (a home file change refused, then each failing HealthCondition) and what an operator
 * needs to look into them.
 */
export const healthOf = (
  homeFile: Option.Option<string>,
  refusedChange: Option.Option<string>,
  failing: ReadonlyArray<string>,
  adapters: ReadonlyArray<string>
): Health => {
  const reasons = [...Option.toArray(Option.as(refusedChange, refusedHomeChange)), ...failing]
  if (reasons.length === 0) return ok
  return {
    status: "degraded",
    reasons,
    home: Option.getOrNull(homeFile),
    last_reload_error: Option.getOrNull(refusedChange),
    adapters,
    version: gatewayVersion
  }
}

/**
 * 503 with the reasons that take the gateway out, when one does (a load balancer then sends its
 * requests to another replica); otherwise 200, `ok` or `degraded` with every reason. The adapters are
 * asked only when something is wrong: all is well is a probe's usual answer, given at once (without a
 * fiber) when every condition knows its answer at once.
 */
const healthNow = (_: unknown, context: Context.Context<HealthConditions | HomeFileStatus | Registry>) =>
  Effect.flatMapEager(Context.get(context, HealthConditions).failing(), (failing) => {
    const homeFile = Context.get(context, HomeFileStatus)
    const refusedChange = homeFile.refusedChange()
    if (failing.length === 0 && Option.isNone(refusedChange)) return allWell
    const out = failing.filter((condition) => condition.impact === "out")
    if (out.length > 0) return Effect.fail(new ServiceUnavailable({ message: out.map(reasonOf).join("; ") }))
    return Effect.map(
      Context.get(context, Registry).adapters,
      (adapters) => healthOf(homeFile.file, refusedChange, failing.map(reasonOf), adapters)
    )
  })

const reasonOf = (condition: FailingCondition): string => condition.reason

// The FoxBox web app waits for this (a 204) before its first call.
const pong = Effect.void

/**
 * `/health` (200, `ok` or `degraded`; 503 when out) and `/ping` (204): they answer without a token, so
 * supervisors, load balancers and clients can probe the process. HEAD answers like GET, without the
 * body, for health checkers. Degraded is still 200: nothing that degrades the gateway is mended by
 * restarting it or by sending its requests elsewhere. A supervisor that restarts on an error status
 * probes `/ping`; `/health`'s 503 is for a load balancer.
 */
export const healthRoutes = bindGroup(health, {
  health: healthNow,
  health_head: healthNow,
  ping: () => pong,
  ping_head: () => pong
})
