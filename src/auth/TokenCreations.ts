import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Result from "effect/Result"
import type { StoreError } from "../domain/StoreError.ts"

/**
 * The tokens each user created over HTTP within the window, the count the creation rate of TokenQuota
 * judges by: in this process's memory for one gateway, in PostgreSQL for replicas, so that the rate is
 * one per user whichever replicas the requests reach (docs/replicas.md).
 */

export interface TokenCreationsShape {
  /**
   * Holds a place for one creation by `user` now, unless `limit` creations of `user` lie within
   * `windowMs` already: then answers in how many ms the oldest of them leaves the window. Counting and
   * holding are one step, whoever else holds places at once. The place held is given back by the
   * effect answered (a creation that created nothing). Places older than `windowMs` are forgotten.
   */
  readonly hold: (user: string, limit: number, windowMs: number) => Effect.Effect<Result.Result<Effect.Effect<void, StoreError>, number>, StoreError>
}

export class TokenCreations extends Context.Service<TokenCreations, TokenCreationsShape>()("app/TokenCreations") {}
