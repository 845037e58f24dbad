import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Result } from "effect"
import * as fc from "fast-check"
import { ChannelId, type WatchEvent } from "../../src/domain/index.ts"
import { coalesce, WATCH_QUEUE_LIMIT, WATCH_QUEUE_RESUME, WatchQueue } from "../../src/gateway/WatchQueue.ts"

const channel = fc.constantFrom(...["a", "b", "c", "d"].map((c) => ChannelId.make(`getter:${c}@q`)))
const event: fc.Arbitrary<WatchEvent> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("ValueChanged" as const), channel, value: fc.nat(9).map((value) => ({ _tag: "Duration" as const, seconds: value })) }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("ChannelAdded" as const), channel }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("ChannelRemoved" as const), channel }) }
)
const events = fc.array(event, { maxLength: 60 })

const isSubsequence = <A>(sub: ReadonlyArray<A>, of: ReadonlyArray<A>): boolean => {
  let i = 0
  for (const item of of) if (i < sub.length && sub[i] === item) i++
  return i === sub.length
}

describe("coalescing (slow consumers)", () => {
  it("keeps every topology event and the last value of each channel, in the order they came", () => {
    fc.assert(fc.property(events, (input) => {
      const output = coalesce(input)
      expect(isSubsequence(output, input)).toBe(true)
      expect(output.filter((e) => e._tag !== "ValueChanged")).toEqual(input.filter((e) => e._tag !== "ValueChanged"))
      for (const id of new Set(input.map((e) => e.channel))) {
        const values = input.filter((e) => e._tag === "ValueChanged" && e.channel === id)
        const kept = output.filter((e) => e._tag === "ValueChanged" && e.channel === id)
        expect(kept).toEqual(values.slice(-1))
      }
    }))
  })

  it("is idempotent", () => {
    fc.assert(fc.property(events, (input) => {
      expect(coalesce(coalesce(input))).toEqual(coalesce(input))
    }))
  })
})

describe("the watch queue", () => {
  const value = (c: string, seconds: number): WatchEvent => ({ _tag: "ValueChanged", channel: ChannelId.make(c), value: { _tag: "Duration", seconds } })

  it.effect("hands over everything pending at once, in order", () =>
    Effect.gen(function*() {
      const queue = new WatchQueue()
      queue.push(value("x", 1))
      queue.push(value("y", 2))
      expect(yield* queue.take).toEqual([value("x", 1), value("y", 2)])
      expect(queue.size).toBe(0)
    }))

  it.effect("stays within its limit under any number of values of a few channels", () =>
    Effect.gen(function*() {
      const queue = new WatchQueue()
      for (let i = 0; i < 10 * WATCH_QUEUE_LIMIT; i++) {
        queue.push(value(`c${i % 3}`, i))
        expect(queue.size).toBeLessThanOrEqual(WATCH_QUEUE_LIMIT)
      }
      const batch = yield* queue.take
      expect(batch.slice(-3)).toEqual([3, 2, 1].map((back) => value(`c${(10 * WATCH_QUEUE_LIMIT - back) % 3}`, 10 * WATCH_QUEUE_LIMIT - back)))
    }))

  it.effect("fails for good once coalescing leaves more than the resume mark", () =>
    Effect.gen(function*() {
      const queue = new WatchQueue()
      for (let i = 0; i <= WATCH_QUEUE_LIMIT; i++) queue.push(value(`c${i % (WATCH_QUEUE_RESUME + 1)}`, i))
      const exit = yield* Effect.exit(queue.take)
      expect(Exit.isFailure(exit) && exit.cause.toString()).toContain("fell behind")
      queue.push(value("late", 1))
      expect(queue.size).toBe(0)
    }))

  it.effect("lets a registration's own events in beyond its limit, which then counts only the others", () =>
    Effect.gen(function*() {
      const queue = new WatchQueue()
      const own = Array.from({ length: 10 * WATCH_QUEUE_LIMIT }, (_, i): WatchEvent => ({ _tag: "ChannelAdded", channel: ChannelId.make(`c${i}`) }))
      queue.pushRegistration(own, own.length)
      for (let i = 0; i < WATCH_QUEUE_LIMIT; i++) queue.push(value(`v${i}`, i))
      expect(queue.overflowed).toBe(false)
      expect(queue.size).toBe(11 * WATCH_QUEUE_LIMIT)
      // Taken in slices; once the client has caught up, the limit counts everything again.
      expect(Result.getOrThrow(queue.poll(10 * WATCH_QUEUE_LIMIT))).toEqual(own)
      expect(Result.getOrThrow(queue.poll(WATCH_QUEUE_LIMIT))).toHaveLength(WATCH_QUEUE_LIMIT)
      for (let i = 0; i <= WATCH_QUEUE_LIMIT; i++) queue.push(value(`w${i}`, i))
      expect(Exit.isFailure(yield* Effect.exit(queue.take))).toBe(true)
    }))

  it("holds a shared registration's events as the one array they are, handed out in stretches, the events pushed after them following", () => {
    const queue = new WatchQueue()
    const shared = Array.from({ length: 3 * WATCH_QUEUE_LIMIT }, (_, i): WatchEvent => ({ _tag: "ChannelAdded", channel: ChannelId.make(`c${i}`) }))
    queue.push(value("before", 0))
    queue.pushRegistration(shared, shared.length, { shared: true })
    queue.push(value("after", 1))
    const stretches = []
    for (let run = Result.getOrThrow(queue.pollRun(2 * WATCH_QUEUE_LIMIT)); run !== undefined; run = Result.getOrThrow(queue.pollRun(2 * WATCH_QUEUE_LIMIT))) {
      stretches.push({ start: run.start, end: run.end, shared: run.shared, ofTheAnswer: run.events === shared, events: run.events.slice(run.start, run.end) })
    }
    expect(stretches).toEqual([
      { start: 0, end: 1, shared: false, ofTheAnswer: false, events: [value("before", 0)] },
      { start: 0, end: 2 * WATCH_QUEUE_LIMIT, shared: true, ofTheAnswer: true, events: shared.slice(0, 2 * WATCH_QUEUE_LIMIT) },
      { start: 2 * WATCH_QUEUE_LIMIT, end: 3 * WATCH_QUEUE_LIMIT, shared: true, ofTheAnswer: true, events: shared.slice(2 * WATCH_QUEUE_LIMIT) },
      { start: 0, end: 1, shared: false, ofTheAnswer: false, events: [value("after", 1)] }
    ])
    expect(queue.size).toBe(0)
  })

  it("lets in no more of a registration's own events than its bound, so that registering without reading fails", () => {
    const queue = new WatchQueue()
    const own = Array.from({ length: 2 * WATCH_QUEUE_LIMIT }, (_, i): WatchEvent => ({ _tag: "ChannelRemoved", channel: ChannelId.make(`c${i}`) }))
    queue.pushRegistration(own, own.length)
    expect(queue.overflowed).toBe(false)
    queue.pushRegistration(own, own.length)
    expect(queue.overflowed).toBe(true)
  })
})
