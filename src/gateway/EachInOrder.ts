import * as Effect from "effect/Effect"

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
