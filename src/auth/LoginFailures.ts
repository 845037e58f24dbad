import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StoreError } from "../domain/StoreError.ts"

/**
 * The failed logins of the window, the counts the login throttle (LoginThrottle) judges by: in this
 * process's memory for one gateway, in PostgreSQL for replicas, so that failures spread over them are
 * counted as on one (docs/replicas.md). Only ended attempts are kept here: those still being checked
 * stay with the replica checking them, so that a replica that dies leaves nothing in flight behind.
 */

/** Whose failures a budget counts: the username's at one address, the username's from every address, the address's. */
export type Budget = "pair" | "user" | "address"

/** How many failures each budget allows within the window. */
export type BudgetLimits = Readonly<Record<Budget, number>>

/** A budget's failures within the window, counted up to its limit; and in how many ms the oldest of those counted leaves the window. */
export interface Tally {
  readonly failures: number
  readonly oldestLeavesInMs: number
}

export interface LoginFailuresShape {
  /**
   * The failures within `windowMs` counted against an attempt of `username` from `address`: the pair's
   * and the user's that no success of their pair cleared, and every one of the address.
   */
  readonly tally: (username: string, address: string, limits: BudgetLimits, windowMs: number) => Effect.Effect<Readonly<Record<Budget, Tally>>, StoreError>
  /**
   * Counts one failure now, cleared already if a success of its pair came while it was checked. A
   * failure older than `windowMs` is forgotten, so that what is kept stays bounded.
   */
  readonly add: (username: string, address: string, cleared: boolean, windowMs: number) => Effect.Effect<void, StoreError>
  /** A success of the pair: its failures no longer count against the user, but still against the address. */
  readonly clear: (username: string, address: string) => Effect.Effect<void, StoreError>
}

export class LoginFailures extends Context.Service<LoginFailures, LoginFailuresShape>()("app/LoginFailures") {}
