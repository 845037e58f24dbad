import { Context, Effect, Layer, Option } from "effect"

/**
 * Failed logins, counted per username and per client address over a sliding window: past the limit,
 * further attempts are refused (429, `Retry-After`) without checking the password, so guessing is slow
 * and costs the gateway no scrypt work. A success clears the username's count. Kept in memory: a
 * restart forgets, which only lets an attacker start over as slowly.
 */

/** Failures allowed per username within the window. */
export const maxFailuresPerUser = 5
/** Failures allowed per client address within the window (a household shares one address behind NAT). */
export const maxFailuresPerAddress = 20
export const failureWindowMs = 5 * 60_000
/** Keys remembered at most, so a flood of made-up usernames cannot grow memory without bound. */
const maxKeys = 10_000

export interface LoginThrottleShape {
  /** `Some(seconds to wait)` when this user or address is locked out now. */
  readonly lockedFor: (username: string, address: string) => Effect.Effect<Option.Option<number>>
  readonly failed: (username: string, address: string) => Effect.Effect<void>
  readonly succeeded: (username: string) => Effect.Effect<void>
}

export class LoginThrottle extends Context.Service<LoginThrottle, LoginThrottleShape>()("app/LoginThrottle") {
  static readonly layer = Layer.sync(LoginThrottle, () => {
    const failures = new Map<string, Array<number>>()
    const recent = (key: string, now: number) => {
      const kept = (failures.get(key) ?? []).filter((at) => now - at < failureWindowMs)
      if (kept.length === 0) failures.delete(key)
      else failures.set(key, kept)
      return kept
    }
    const waitFor = (key: string, limit: number, now: number): number | undefined => {
      const kept = recent(key, now)
      const oldest = kept[kept.length - limit]
      return kept.length >= limit && oldest !== undefined ? Math.ceil((oldest + failureWindowMs - now) / 1000) : undefined
    }
    const record = (key: string, now: number) => {
      if (!failures.has(key) && failures.size >= maxKeys) {
        const first = failures.keys().next()
        if (first.done !== true) failures.delete(first.value)
      }
      failures.set(key, [...recent(key, now), now])
    }
    return LoginThrottle.of({
      lockedFor: (username, address) =>
        Effect.sync(() => {
          const now = Date.now()
          const waits = [waitFor(`user:${username}`, maxFailuresPerUser, now), waitFor(`address:${address}`, maxFailuresPerAddress, now)]
            .filter((w): w is number => w !== undefined)
          return waits.length === 0 ? Option.none() : Option.some(Math.max(1, ...waits))
        }),
      failed: (username, address) =>
        Effect.sync(() => {
          const now = Date.now()
          record(`user:${username}`, now)
          record(`address:${address}`, now)
        }),
      succeeded: (username) => Effect.sync(() => void failures.delete(`user:${username}`))
    })
  })
}
