import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"

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
 * Kept in memory: a restart forgets, which only lets an attacker start over as slowly.
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
/** Keys remembered at most, so a flood of made-up usernames cannot grow memory without bound. */
const maxKeys = 10_000

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
  ) => Effect.Effect<Option.Option<A>, E | LoginLocked, R>
}

/**
 * One attempt, listed under its username and under its address: when it began, from where, whether it
 * is still being checked, and whether a success of its pair has cleared it (no failure against the user).
 */
interface Entry {
  readonly at: number
  readonly address: string
  pending: boolean
  cleared: boolean
}

/** What a budget says of one more attempt: it may go ahead, it must wait for those in flight, or it is refused for this many seconds. */
type Verdict = "free" | "busy" | number

export class LoginThrottle extends Context.Service<LoginThrottle, LoginThrottleShape>()("app/LoginThrottle") {
  static readonly layer = Layer.sync(LoginThrottle, () => {
    /** Per key (`user:…`, `address:…`), the attempts of the window that did not succeed, oldest first. */
    const attempts = new Map<string, Array<Entry>>()
    /** Completed, and replaced, whenever an attempt in flight ends: what waiting attempts wait for. */
    let anAttemptEnded = Deferred.makeUnsafe<void>()

    const recent = (key: string, now: number): Array<Entry> => {
      // An attempt still in flight is kept whatever its age: it holds its place until it ends.
      const kept = (attempts.get(key) ?? []).filter((entry) => entry.pending || now - entry.at < failureWindowMs)
      if (kept.length === 0) attempts.delete(key)
      else attempts.set(key, kept)
      return kept
    }
    const judge = (entries: ReadonlyArray<Entry>, limit: number, now: number): Verdict => {
      const failures = entries.filter((entry) => !entry.pending)
      const oldest = failures[failures.length - limit]
      if (oldest !== undefined) return Math.ceil((oldest.at + failureWindowMs - now) / 1000)
      return entries.length >= limit ? "busy" : "free"
    }
    const record = (key: string, entry: Entry) => {
      if (!attempts.has(key) && attempts.size >= maxKeys) {
        const first = attempts.keys().next()
        if (first.done !== true) attempts.delete(first.value)
      }
      attempts.set(key, [...recent(key, entry.at), entry])
    }
    const remove = (key: string, keep: (entry: Entry) => boolean) => {
      const kept = (attempts.get(key) ?? []).filter(keep)
      if (kept.length === 0) attempts.delete(key)
      else attempts.set(key, kept)
    }

    /** Lets an attempt in, counted under its user and its address at once, or answers why not yet. */
    const begin = (username: string, address: string): Entry | LoginLocked | "busy" => {
      const now = Date.now()
      const userKey = `user:${username}`
      const addressKey = `address:${address}`
      const ofUser = recent(userKey, now)
      const verdicts = [
        judge(ofUser.filter((entry) => entry.address === address), maxFailuresPerUserAndAddress, now),
        judge(ofUser, maxFailuresPerUser, now),
        judge(recent(addressKey, now), maxFailuresPerAddress, now)
      ]
      const waits = verdicts.filter((verdict) => typeof verdict === "number")
      if (waits.length > 0) return new LoginLocked({ retryAfterSeconds: Math.max(1, ...waits) })
      if (verdicts.includes("busy")) return "busy"
      const entry = { at: now, address, pending: true, cleared: false }
      record(userKey, entry)
      record(addressKey, entry)
      return entry
    }

    const end = (username: string, entry: Entry, succeeded: boolean) => {
      entry.pending = false
      const userKey = `user:${username}`
      if (succeeded) {
        // Clears the pair's failures, and those its attempts still in flight turn out to be, whatever
        // the order they end in; those keep their places until they end.
        for (const other of attempts.get(userKey) ?? []) if (other.address === entry.address) other.cleared = true
        remove(`address:${entry.address}`, (other) => other !== entry)
      }
      remove(userKey, (other) => other.pending || !other.cleared)
      const ended = anAttemptEnded
      anAttemptEnded = Deferred.makeUnsafe<void>()
      Deferred.doneUnsafe(ended, Exit.void)
    }

    const attempt = <A, E, R>(username: string, address: string, check: Effect.Effect<Option.Option<A>, E, R>) =>
      Effect.uninterruptibleMask((restore) => {
        const admitted: Effect.Effect<Entry, LoginLocked> = Effect.suspend(() => {
          const ended = anAttemptEnded
          const verdict = begin(username, address)
          if (verdict instanceof LoginLocked) return Effect.andThen(Metric.update(tooManyFailures, 1), Effect.fail(verdict))
          if (verdict === "busy") return Effect.andThen(restore(Deferred.await(ended)), admitted)
          return Effect.succeed(verdict)
        })
        return Effect.flatMap(admitted, (entry) =>
          restore(check).pipe(
            Effect.onExit((exit) => {
              end(username, entry, Exit.isSuccess(exit) && Option.isSome(exit.value))
              return Exit.isSuccess(exit) && Option.isNone(exit.value) ? Metric.update(wrongCredentials, 1) : Effect.void
            })
          ))
      })

    return LoginThrottle.of({ attempt })
  })
}
