import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric, Result } from "effect"
import { ChannelId } from "../../src/domain/index.ts"
import type { ChannelError } from "../../src/domain/index.ts"
import type { Reply } from "../../src/gateway/Adapter.ts"
import { callDevices, type DeviceBatch } from "../../src/gateway/DeviceCall.ts"
import type { CallEnd } from "../../src/gateway/DeviceCallMetrics.ts"

const a = ChannelId.make("getter:a@test")
const b = ChannelId.make("getter:b@test")

/** One adapter's batch of channels `items`, answered by `call`. */
const batch = (items: ReadonlyArray<ChannelId>, call: (reply: Reply<number>) => Effect.Effect<void>): DeviceBatch<ChannelId, number> => ({
  adapter: "test",
  items,
  call
})

/**
 * Calls the batches with a deadline of `timeoutMs`, recording each settled reply and each call's end,
 * and counting the fibers started meanwhile (the runtime tells a FiberRuntimeMetrics service of each).
 */
const called = (batches: ReadonlyArray<DeviceBatch<ChannelId, number>>, timeoutMs = 1_000) =>
  Effect.gen(function*() {
    const settled: Array<ChannelId> = []
    const ends: Array<CallEnd> = []
    let fibers = 0
    const counting: Metric.FiberRuntimeMetricsService = { recordFiberStart: () => void fibers++, recordFiberEnd: () => {} }
    const answers = yield* callDevices(
      batches,
      (item) => item,
      timeoutMs,
      (item, reply) => Effect.sync(() => void settled.push(item)).pipe(Effect.as(reply)),
      (_adapter, end) => void ends.push(end)
    ).pipe(Effect.provideService(Metric.FiberRuntimeMetrics, counting))
    return { answers: Object.fromEntries(answers.map(([item, answer]) => [item, answer])), settled, ends, fibers }
  })

const failed = (message: string): Result.Result<number, ChannelError> => Result.fail({ _tag: "DeviceFailure", message })

describe("a device call", () => {
  it.effect("that answered everything now and returned an Exit is over without a fiber", () =>
    Effect.gen(function*() {
      const { answers, settled, ends, fibers } = yield* called([batch([a, b], (reply) => {
        reply.now(a, Result.succeed(1))
        reply.now(b, Result.fail("unplugged"))
        return Effect.void
      })])
      expect(answers).toEqual({ [a]: Result.succeed(1), [b]: failed("unplugged") })
      expect(settled).toEqual([a, b])
      expect(ends).toEqual([{ failed: true, timedOut: false }])
      expect(fibers).toBe(0)
    }))

  it.effect("takes each channel's first reply only, and none for a channel not asked, in a short batch and a long one", () =>
    Effect.gen(function*() {
      for (const count of [2, 40]) {
        const channels = Array.from({ length: count }, (_, i) => ChannelId.make(`getter:c${i}@test`))
        const { answers, settled } = yield* called([batch(channels, (reply) => {
          for (const [i, channel] of channels.entries()) reply.now(channel, Result.succeed(i))
          reply.now(a, Result.succeed(-1))
          for (const channel of channels) reply.now(channel, Result.succeed(-2))
          return Effect.void
        })])
        expect(answers).toEqual(Object.fromEntries(channels.map((channel, i) => [channel, Result.succeed(i)])))
        expect(settled).toEqual(channels)
      }
    }))

  it.effect("that answers through its effect runs in a fiber of its own", () =>
    Effect.gen(function*() {
      const { answers, fibers } = yield* called([batch([a], (reply) => reply(a, Result.succeed(1)))])
      expect(answers).toEqual({ [a]: Result.succeed(1) })
      expect(fibers).toBe(1)
    }))

  it.live("settles what was answered now before its fiber answers the rest, and cuts that fiber at the deadline", () =>
    Effect.gen(function*() {
      const { answers, settled, ends } = yield* called([batch([a, b], (reply) => {
        reply.now(a, Result.succeed(1))
        return Effect.andThen(reply(b, Result.succeed(2)), Effect.never)
      })], 50)
      expect(answers).toEqual({ [a]: Result.succeed(1), [b]: Result.succeed(2) })
      expect(settled).toEqual([a, b])
      expect(ends).toEqual([{ failed: false, timedOut: true }])
    }))

  it.live("leaves a channel without its answer when it is given now after the method returned", () =>
    Effect.gen(function*() {
      const { answers } = yield* called([batch([a, b], (reply) =>
        Effect.andThen(Effect.yieldNow, Effect.sync(() => reply.now(a, Result.succeed(1)))).pipe(Effect.andThen(reply(b, Result.succeed(2)))))])
      expect(answers).toEqual({ [a]: failed("device gave no answer for this channel"), [b]: Result.succeed(2) })
    }))

  it.effect("whose method throws is a device that died: its channels fail, the others answer", () =>
    Effect.gen(function*() {
      const { answers, ends } = yield* called([
        batch([a], () => {
          throw new Error("the driver crashed")
        }),
        { ...batch([b], (reply) => {
          reply.now(b, Result.succeed(2))
          return Effect.void
        }), adapter: "other" }
      ])
      expect(answers).toEqual({ [a]: failed("device failed: Error: the driver crashed"), [b]: Result.succeed(2) })
      expect(ends).toEqual([{ failed: true, timedOut: false }, { failed: false, timedOut: false }])
    }))
})
