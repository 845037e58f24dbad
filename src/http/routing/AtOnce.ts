import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { doneAlready } from "../../gateway/AlreadyDone.ts"

/**
 * `program`, made in a context with `service` added: done, as it is; yet to run, with the service provided
 * (it runs in the request's context, which lacks it).
 */
export const givenService = <A, E, R, I, S>(
  program: Effect.Effect<A, E, R>,
  key: Context.Key<I, S>,
  service: S
): Effect.Effect<A, E, Exclude<R, I>> => doneAlready(program) ?? Effect.provideService(program, key, service)
