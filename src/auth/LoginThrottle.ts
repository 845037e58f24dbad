import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type { StoreError } from "../domain/StoreError.ts"
import { type Budget, type BudgetLimits, LoginFailures, type Tally } from "./LoginFailures.ts"

/**
 * Login attempts, counted over a sliding window per username and client address (the pair), per
 * client address, and per username from every address: past a limit, further attempts are refused
 * (429, `Retry-After`) without checking the password, so guessing is slow and costs the gateway no
 * scrypt work.
 *
 * The pair's limit is the low one: a client that keeps failing as a user (a bridge retrying a stale
 * password, a guesser) locks out that user at its own address only, not the same user elsewhere. The
 * address's limit bounds one client trying many usernames; the user's, far higher, bounds guessing
 * one user's password from many addresses.
 *
 * An attempt counts from the moment it is let in, before its password is checked, and counts as a
 * failure unless it succeeds: a burst sent in parallel is refused exactly as the same attempts sent one
 * by one (checking first and counting after the ~170 ms of scrypt let every attempt of a burst through).
 * An attempt that would be refused only because of attempts still being checked waits for them to end,
 * and is then judged on what they turned out to be: eight right passwords at once all get in. A success
 * takes its own attempt back and clears the failures of its pair, those of its attempts in flight
 * included (not the address's: a household behind one address keeps one budget; nor the other
 * addresses' against the user).
 * The failures are counted by LoginFailures: in memory for one gateway (a restart forgets, which only
 * lets an attacker start over as slowly), shared by replicas in PostgreSQL. The attempts in flight are
 * this gateway's own: with replicas, the rule above holds per replica (docs/replicas.md), so that one
 * that dies leaves no attempt in flight for the others to wait on.
 */

/** Failures allowed per username from one client address within the window. */
export const maxFailuresPerUserAndAddress = 5
/** Failures allowed per client address within the window, whatever the usernames (a household shares one address behind NAT). */
export const maxFailuresPerAddress = 20
/** Failures allowed per username within the window, whatever the addresses: guessing from many addresses. */
export const maxFailuresPerUser = 100
export const failureWindowMs = 5 * 60_000
/** The address counted for a client whose address is not known: all such clients share one budget. */
export const unknownAddress = "unknown"

const limits: BudgetLimits = { pair: maxFailuresPerUserAndAddress, user: maxFailuresPerUser, address: maxFailuresPerAddress }

/** Logins refused (`GET /metrics`), by why: wrong credentials, or refused unchecked while the budget is used. */
const refusedLogins = (why: "wrong credentials" | "too many failures") =>
  Metric.counter("gateway_logins_refused_total", {
    description: "Logins refused: wrong username or password, or too many failures (429, the password not checked).",
    incremental: true,
    attributes: { reason: why }
  })
const wrongCredentials = refusedLogins("wrong credentials")
const tooManyFailures = refusedLogins("too many failures")

/** This user or address has used its budget: try again in `retryAfterSeconds`. */
export class LoginLocked extends Data.TaggedError("LoginLocked")<{ readonly retryAfterSeconds: number }> {
  override get message(): string {
    return `too many failed logins: try again in ${this.retryAfterSeconds} s`
  }
}

export interface LoginThrottleShape {
  /**
   * One login attempt of `username` from `address`: `check` answers the user it admits, or `None`.
   * Fails with LoginLocked, without running `check`, when the pair, the address or the user has used
   * its budget; waits first while attempts still in flight could still use it. An attempt whose check
   * fails or is interrupted counts as a failure.
   */
  readonly attempt: <A, E, R>(
    username: string,
    address: string,
    check: Effect.Effect<Option.Option<A>, E, R>
  ) => Effect.Effect<Option.Option<A>, E | LoginLocked | StoreError, R>
}

/** An attempt of this gateway still being checked; `cleared` once a success of its pair came meanwhile. */
interface InFlight {
  readonly username: string
  readonly address: string
  cleared: boolean
}

/** What a budget says of one more attempt: it may go ahead, it must wait for those in flight, or it is refused for this many seconds. */
type Verdict = "free" | "busy" | number

const judge = (tally: Tally, inFlight: number, limit: number): Verdict => {
  if (tally.failures >= limit) return Math.ceil(tally.oldestLeavesInMs / 1000)
  return tally.failures + inFlight >= limit ? "busy" : "free"
}

export class LoginThrottle extends Context.Service<LoginThrottle, LoginThrottleShape>()("app/LoginThrottle") {
  static readonly layer = Layer.effect(
    LoginThrottle,
    Effect.gen(function*() {
      const failures = yield* LoginFailures
      const inFlight = new Set<InFlight>()
      /**
       * Completed, and replaced, whenever an attempt in flight ends (after its failure is counted): what
       * waiting attempts wait for, and how a judgement knows that one ended while it read the failures.
       */
      let anAttemptEnded = Deferred.makeUnsafe<void>()

      const inFlightFor = (username: string, address: string): Record<Budget, number> => {
        const counts = { pair: 0, user: 0, address: 0 }
        for (const attempt of inFlight) {
          if (attempt.username === username) {
            counts.user++
            if (attempt.address === address) counts.pair++
          }
          if (attempt.address === address) counts.address++
        }
        return counts
      }

      /**
       * Lets an attempt in, or answers why not yet, with what to wait for if it must wait. An attempt that
       * ended while the failures were read may be counted in neither them nor the flight: then it judges
       * again. So no lock is held across the read (on PostgreSQL, a round trip).
       */
      const begin = (username: string, address: string): Effect.Effect<InFlight | LoginLocked | { readonly busy: Deferred.Deferred<void> }, StoreError> =>
        Effect.suspend(() => {
          const ended = anAttemptEnded
          return Effect.flatMap(failures.tally(username, address, limits, failureWindowMs), (tally) => {
            if (anAttemptEnded !== ended) return begin(username, address)
            const flying = inFlightFor(username, address)
            const verdicts = (["pair", "user", "address"] as const).map((budget) => judge(tally[budget], flying[budget], limits[budget]))
            const waits = verdicts.filter((verdict) => typeof verdict === "number")
            if (waits.length > 0) return Effect.succeed(new LoginLocked({ retryAfterSeconds: Math.max(1, ...waits) }))
            if (verdicts.includes("busy")) return Effect.succeed({ busy: ended })
            const attempt = { username, address, cleared: false }
            inFlight.add(attempt)
            return Effect.succeed(attempt)
          })
        })

      const end = (attempt: InFlight, succeeded: boolean) => {
        const recorded = succeeded
          ? Effect.suspend(() => {
            // Clears the pair's failures, and those its attempts still in flight turn out to be, whatever the order they end in.
            for (const other of inFlight) if (other.username === attempt.username && other.address === attempt.address) other.cleared = true
            return failures.clear(attempt.username, attempt.address)
          })
          : failures.add(attempt.username, attempt.address, attempt.cleared, failureWindowMs)
        const ended = Effect.sync(() => {
          inFlight.delete(attempt)
          const waiting = anAttemptEnded
          anAttemptEnded = Deferred.makeUnsafe<void>()
          Deferred.doneUnsafe(waiting, Exit.void)
        })
        return Effect.ensuring(recorded, ended)
      }

      const attempt = <A, E, R>(username: string, address: string, check: Effect.Effect<Option.Option<A>, E, R>) =>
        Effect.uninterruptibleMask((restore) => {
          const admitted: Effect.Effect<InFlight, LoginLocked | StoreError> = Effect.flatMap(begin(username, address), (verdict) => {
            if (verdict instanceof LoginLocked) return Effect.andThen(Metric.update(tooManyFailures, 1), Effect.fail(verdict))
            if ("busy" in verdict) return Effect.andThen(restore(Deferred.await(verdict.busy)), admitted)
            return Effect.succeed(verdict)
          })
          return Effect.flatMap(admitted, (entry) =>
            Effect.flatMap(Effect.exit(restore(check)), (exit) => {
              const succeeded = Exit.isSuccess(exit) && Option.isSome(exit.value)
              const refused = Exit.isSuccess(exit) && Option.isNone(exit.value) ? Metric.update(wrongCredentials, 1) : Effect.void
              return Effect.andThen(Effect.andThen(end(entry, succeeded), refused), exit)
            }))
        })

      return LoginThrottle.of({ attempt })
    })
  )
}
