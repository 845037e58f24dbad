import { Effect } from "effect"

/** Reads `read` until `done` holds, for a few seconds at most; answers the last reading either way. */
export const eventually = <A, E, R>(read: Effect.Effect<A, E, R>, done: (a: A) => boolean) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 100; attempt++) {
      const a = yield* read
      if (done(a)) return a
      yield* Effect.sleep("50 millis")
    }
    return yield* read
  })
