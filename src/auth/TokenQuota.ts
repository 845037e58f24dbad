import * as Data from "effect/Data"

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
