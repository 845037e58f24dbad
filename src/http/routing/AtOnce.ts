import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"

/**
 * A route's program made done (RouteTable's `RouteProgram`): an Effect that already is its `Exit` needs no
 * fiber to run, and what follows it is applied to it at once (Effect's `…Eager` steps do the same).
 */

/** The `Exit` that `program` already is; `undefined` when it has yet to run. */
export const doneAlready = <A, E, R>(program: Effect.Effect<A, E, R>): Exit.Exit<A, E> | undefined =>
  // An Effect that is an Exit is its own outcome: its types are the program's.
  Exit.isExit(program) ? (program as Exit.Exit<A, E>) : undefined

/**
 * `program`, made in a context with `service` added: done, as it is; yet to run, with the service provided
 * (it runs in the request's context, which lacks it).
 */
export const givenService = <A, E, R, I, S>(
  program: Effect.Effect<A, E, R>,
  key: Context.Key<I, S>,
  service: S
): Effect.Effect<A, E, Exclude<R, I>> => doneAlready(program) ?? Effect.provideService(program, key, service)
