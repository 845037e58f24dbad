/** Reads `read` until `done` holds, for about five seconds at most; answers the last reading either way. */
export const eventually = async <A>(read: () => Promise<A>, done: (a: A) => boolean): Promise<A> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const a = await read()
    if (done(a)) return a
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return read()
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
