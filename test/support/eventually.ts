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

/** `eventually` for tests written with promises (requests over HTTP). */
export const eventuallyAsync = async <A>(read: () => Promise<A>, done: (a: A) => boolean): Promise<A> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const a = await read()
    if (done(a)) return a
    await pause(50)
  }
  return read()
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
