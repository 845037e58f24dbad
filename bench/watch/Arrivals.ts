/**
 * The values one watcher of the watch benchmark received: when each was sent (the time it carries)
 * and when it arrived, epoch ms. The pairs live in a Float64Array that doubles when full, whose store
 * lies outside the JavaScript heap. With numbers pushed onto arrays, a thousand watchers' arrays
 * growing by 100 values a second made the load process's young-generation collections last up to
 * 86 ms; those pauses were counted as the gateway's latency.
 */
export interface Arrivals {
  readonly push: (sent: number, arrived: number) => void
  /** Forgets every pair (the warm-up's) and keeps the room they took. */
  readonly clear: () => void
  readonly forEach: (f: (sent: number, arrived: number) => void) => void
}

export const makeArrivals = (initialCapacity = 1024): Arrivals => {
  let pairs = new Float64Array(2 * Math.max(1, initialCapacity))
  let length = 0
  return {
    push: (sent, arrived) => {
      if (2 * length === pairs.length) {
        const grown = new Float64Array(2 * pairs.length)
        grown.set(pairs)
        pairs = grown
      }
      pairs[2 * length] = sent
      pairs[2 * length + 1] = arrived
      length++
    },
    clear: () => {
      length = 0
    },
    forEach: (f) => {
      for (let i = 0; i < length; i++) f(pairs[2 * i] ?? Number.NaN, pairs[2 * i + 1] ?? Number.NaN)
    }
  }
}
