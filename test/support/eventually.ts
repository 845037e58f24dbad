import { Data, Effect } from "effect"
import { inspect } from "node:util"

/** How many readings a wait takes, 50 ms apart, before it fails: 10 s of pauses, room for a busy machine. */
const attempts = 200
const between = 50

/** A state waited for that never came: the test fails naming what was last read instead. */
export class NeverReached extends Data.TaggedError("NeverReached")<{ readonly last: unknown }> {
  override get message() {
    return `the state waited for never came in ${attempts} readings ${between} ms apart; the last reading: ${inspect(this.last, { depth: 6 })}`
  }
}

/** Reads `read` until `done` holds, and answers that reading; fails with `NeverReached` if it never does. */
export const eventually = <A, E, R>(read: Effect.Effect<A, E, R>, done: (a: A) => boolean) =>
  Effect.gen(function*() {
    let last: A | undefined
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) yield* Effect.sleep(between)
      last = yield* read
      if (done(last)) return last
    }
    return yield* new NeverReached({ last })
  })

/** `eventually` for tests written with promises (requests over HTTP): rejects with `NeverReached`. */
export const eventuallyAsync = async <A>(read: () => Promise<A>, done: (a: A) => boolean): Promise<A> => {
  let last: A | undefined
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) await pause(between)
    last = await read()
    if (done(last)) return last
  }
  throw new NeverReached({ last })
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
