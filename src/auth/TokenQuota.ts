import * as Data from "effect/Data"
import * as Result from "effect/Result"

/**
 * What a token may create over HTTP (docs/auth.md#limits): so that one token, stolen or buggy, cannot
 * fill the database or drown its owner's list. The command line, which holds the data folder, is not
 * bound.
 */

/** API tokens one user may hold live (neither revoked nor expired) before creating over HTTP stops; sessions are not counted. */
export const maxLiveApiTokens = 200
/** Tokens one user may create over HTTP within the creation window. */
export const maxCreationsPerWindow = 30
export const defaultCreationWindowMs = 60_000

export interface TokenQuotaOptions {
  /** Live API tokens per user; `maxLiveApiTokens` unless told. */
  readonly liveApiTokens?: number
  /** Creations per user within `creationWindowMs`; `maxCreationsPerWindow` unless told. */
  readonly creationsPerWindow?: number
  /** The sliding window of creations; `defaultCreationWindowMs` unless told. */
  readonly creationWindowMs?: number
}

/** The user holds its limit of live API tokens: only revoking some lets it create more (no `Retry-After`: waiting does not help). */
export class TooManyTokens extends Data.TaggedError("TooManyTokens")<{ readonly limit: number }> {
  override get message(): string {
    return `this user holds ${this.limit} live API tokens, the most it may: revoke tokens it no longer needs to create others`
  }
}

/** The user created its limit of tokens within the window: try again in `retryAfterSeconds`. */
export class CreatingTooFast extends Data.TaggedError("CreatingTooFast")<{
  readonly limit: number
  readonly windowSeconds: number
  readonly retryAfterSeconds: number
}> {
  override get message(): string {
    return `this user created ${this.limit} tokens within ${this.windowSeconds} s, the most it may: try again in ${this.retryAfterSeconds} s`
  }
}

/**
 * Creations per user over a sliding window, in memory (a restart forgets, which lets a token start over
 * only as slowly). Each user keeps at most `limit` times. A creation holds its place from the moment it
 * is let in, so that requests sent at once are counted as those sent one by one, and gives it back if
 * it creates nothing (a refusal is no creation).
 */
export const creationRate = (limit: number, windowMs: number) => {
  const recent = new Map<string, Array<number>>()
  return {
    /** Holds a place for a creation by `user` at `now`: answers how to give it back, or, past the limit, the refusal. */
    admit: (user: string, now: number): Result.Result<() => void, CreatingTooFast> => {
      const times = (recent.get(user) ?? []).filter((at) => at > now - windowMs)
      recent.set(user, times)
      const oldest = times[0]
      if (times.length >= limit && oldest !== undefined) {
        return Result.fail(new CreatingTooFast({
          limit,
          windowSeconds: Math.ceil(windowMs / 1000),
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000))
        }))
      }
      times.push(now)
      return Result.succeed(() => {
        const kept = recent.get(user) ?? []
        const index = kept.indexOf(now)
        if (index !== -1) kept.splice(index, 1)
      })
    }
  }
}
