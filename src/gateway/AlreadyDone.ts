import type * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"

/**
 * An effect that already is its `Exit` (an adapter's method that answered from memory, a route's program
 * made done) needs no fiber to run: what follows it can be applied to it at once, as Effect's `…Eager`
 * steps do.
 */

/** The `Exit` that `effect` already is; `undefined` when it has yet to run. */
export const doneAlready = <A, E, R>(effect: Effect.Effect<A, E, R>): Exit.Exit<A, E> | undefined =>
  // An Effect that is an Exit is its own outcome: its types are the effect's.
  Exit.isExit(effect) ? (effect as Exit.Exit<A, E>) : undefined

/** Whether an effect has succeeded already: a successful `Exit`. */
export const isDone = <A, E, R>(effect: Effect.Effect<A, E, R>): effect is Exit.Success<A, E> =>
  Exit.isExit(effect) && Exit.isSuccess(effect)
