import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { isDone } from "./AlreadyDone.ts"

/**
 * Runs `f` for each item, one after the other, as one effect: for one item, `f(item)` itself. Cheaper
 * than `Effect.forEach` on the request path, where a list is one or two items long most of the time.
 */
export const eachInOrder = <A, E, R>(items: Iterable<A>, f: (item: A) => Effect.Effect<void, E, R>): Effect.Effect<void, E, R> => {
  let all: Effect.Effect<void, E, R> | undefined
  for (const item of items) {
    const previous = all
    all = previous === undefined ? f(item) : Effect.andThen(previous, Effect.suspend(() => f(item)))
  }
  return all ?? Effect.void
}

/**
 * `f` for each item, one after the other, called at once while each answers a successful `Exit`: the
 * items answered from memory cost no step of the runtime. From the first that answers another effect,
 * the rest wait for it. Call it when its effect is to run (in a step of a running fiber, or making a
 * route's program, RouteProgram), not to build one to run later.
 */
export const eachAtOnce = <A, E, R>(items: Iterable<A>, f: (item: A) => Effect.Effect<void, E, R>): Effect.Effect<void, E, R> =>
  eachLeft(items[Symbol.iterator](), f)

const eachLeft = <A, E, R>(left: Iterator<A>, f: (item: A) => Effect.Effect<void, E, R>): Effect.Effect<void, E, R> => {
  for (let next = left.next(); next.done !== true; next = left.next()) {
    const step = f(next.value)
    if (!isDone(step)) return Effect.andThen(step, Effect.suspend(() => eachLeft(left, f)))
  }
  return Exit.void
}
