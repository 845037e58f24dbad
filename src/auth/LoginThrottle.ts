import { Context, Data, Effect, Exit, Layer, Option } from "effect"

/**
 * Login attempts, counted per username and per client address over a sliding window: past the limit,
 * further attempts are refused (429, `Retry-After`) without checking the password, so guessing is slow
 * and costs the gateway no scrypt work.
 *
 * An attempt counts from the moment it is let in, before its password is checked, and counts as a
 * failure unless it succeeds: attempts in flight take their place in the budget, so a burst sent in
 * parallel is refused exactly as the same attempts sent one by one (checking first and counting after
 * the ~170 ms of scrypt let every attempt of a burst through). A success takes its own attempt back and
 * clears the username's failures (not the address's: a household behind one address keeps its budget).
 * Kept in memory: a restart forgets, which only lets an attacker start over as slowly.
 */

/** Failures allowed per username within the window. */
export const maxFailuresPerUser = 5
/** Failures allowed per client address within the window (a household shares one address behind NAT). */
export const maxFailuresPerAddress = 20
export const failureWindowMs = 5 * 60_000
/** Keys remembered at most, so a flood of made-up usernames cannot grow memory without bound. */
const maxKeys = 10_000

/** This user or address has used its budget: try again in `retryAfterSeconds`. */
export class LoginLocked extends Data.TaggedError("LoginLocked")<{ readonly retryAfterSeconds: number }> {
  override get message(): string {
    return `too many failed logins: try again in ${this.retryAfterSeconds} s`
  }
}

export interface LoginThrottleShape {
  /**
   * One login attempt of `username` from `address`: `check` answers the user it admits, or `None`.
   * Fails with LoginLocked, without running `check`, when the user or the address is locked out,
   * counting the attempts still in flight as failures. An attempt whose check fails or is interrupted
   * stays counted as a failure.
   */
  readonly attempt: <A, E, R>(
    username: string,
    address: string,
    check: Effect.Effect<Option.Option<A>, E, R>
  ) => Effect.Effect<Option.Option<A>, E | LoginLocked, R>
}

/** One attempt in a key's list: when it began, and whether it is still being checked. */
interface Entry {
  readonly at: number
  pending: boolean
}

export class LoginThrottle extends Context.Service<LoginThrottle, LoginThrottleShape>()("app/LoginThrottle") {
  static readonly layer = Layer.sync(LoginThrottle, () => {
    /** Per key (`user:…`, `address:…`), the attempts of the window that did not succeed, oldest first. */
    const attempts = new Map<string, Array<Entry>>()
    const recent = (key: string, now: number): Array<Entry> => {
      // An attempt still in flight is kept whatever its age: it holds its place until it ends.
      const kept = (attempts.get(key) ?? []).filter((entry) => entry.pending || now - entry.at < failureWindowMs)
      if (kept.length === 0) attempts.delete(key)
      else attempts.set(key, kept)
      return kept
    }
    const waitFor = (key: string, limit: number, now: number): number | undefined => {
      const kept = recent(key, now)
      const oldest = kept[kept.length - limit]
      return kept.length >= limit && oldest !== undefined ? Math.ceil((oldest.at + failureWindowMs - now) / 1000) : undefined
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

    /** Lets an attempt in, counted on both keys at once, or answers how long to wait. */
    const begin = (username: string, address: string): LoginLocked | { readonly user: Entry; readonly address: Entry } => {
      const now = Date.now()
      const userKey = `user:${username}`
      const addressKey = `address:${address}`
      const waits = [waitFor(userKey, maxFailuresPerUser, now), waitFor(addressKey, maxFailuresPerAddress, now)]
        .filter((w): w is number => w !== undefined)
      if (waits.length > 0) return new LoginLocked({ retryAfterSeconds: Math.max(1, ...waits) })
      const entries = { user: { at: now, pending: true }, address: { at: now, pending: true } }
      record(userKey, entries.user)
      record(addressKey, entries.address)
      return entries
    }

    const attempt = <A, E, R>(username: string, address: string, check: Effect.Effect<Option.Option<A>, E, R>) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.suspend((): Effect.Effect<Option.Option<A>, E | LoginLocked, R> => {
          const entries = begin(username, address)
          if (entries instanceof LoginLocked) return Effect.fail(entries)
          return restore(check).pipe(
            Effect.onExit((exit) =>
              Effect.sync(() => {
                entries.user.pending = false
                entries.address.pending = false
                if (Exit.isSuccess(exit) && Option.isSome(exit.value)) {
                  // The user's own attempts still in flight keep their places; its failures are cleared.
                  remove(`user:${username}`, (entry) => entry.pending)
                  remove(`address:${address}`, (entry) => entry !== entries.address)
                }
              })
            )
          )
        })
      )

    return LoginThrottle.of({ attempt })
  })
}
