import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { ClockAdapter, clockAdapterId, clockGetters, clockServiceId } from "../../src/adapters/clock/ClockAdapter.ts"
import { ChannelId, channelSelector, exactly, serviceSelector } from "../../src/domain/index.ts"
import type { Value } from "../../src/domain/index.ts"
import { Dispatch } from "../../src/gateway/Dispatch.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { gatewayTestLayer } from "../support/gatewayTestLayer.ts"
import { collectReplies, makeRecordingHost } from "./recordingHost.ts"

const noUser = { user: Option.none() }
const morning = Date.parse("2026-11-22T06:30:15.250Z")
const options = { tick: Duration.seconds(1), interval: Duration.seconds(10) }

const clock = Effect.gen(function*() {
  yield* TestClock.setTime(morning)
  const recording = makeRecordingHost()
  yield* ClockAdapter.connect(recording.connect, options)
  const adapter = recording.adapters[0]
  if (adapter === undefined) throw new Error("the clock did not connect")
  return { ...recording, adapter }
})


describe("clock", () => {
  it.effect("connects one device, service:clock@clock, under clock@gateway.local", () =>
    Effect.gen(function*() {
      const { adapter, upserts } = yield* clock
      expect(adapter.id).toBe("clock@gateway.local")
      expect(upserts.map((u) => u.id)).toEqual([clockServiceId])
      expect(upserts[0]?.getters.map((g) => [g.id, g.kind])).toEqual([
        [clockGetters.currentTime, { _tag: "Builtin", name: "CurrentTime" }],
        [clockGetters.timeOfDay, { _tag: "Builtin", name: "CurrentTimeOfDay" }],
        [clockGetters.intervals, { _tag: "Builtin", name: "CountEveryInterval" }]
      ])
      expect(upserts[0]?.setters).toEqual([])
    }))

  it.effect("answers the time, the time of day since UTC midnight, and the whole intervals elapsed", () =>
    Effect.gen(function*() {
      const { adapter } = yield* clock
      yield* TestClock.adjust("25 seconds")
      const { replies, reply } = collectReplies<Option.Option<Value>>()
      yield* adapter.fetch([clockGetters.currentTime, clockGetters.timeOfDay, clockGetters.intervals], noUser, reply)
      expect(replies.map((r) => r.result)).toEqual([
        Result.succeed(Option.some({ _tag: "TimeStamp", epochMillis: morning + 25_000 })),
        Result.succeed(Option.some({ _tag: "Duration", seconds: 6 * 3600 + 30 * 60 + 40.25 })),
        Result.succeed(Option.some({ _tag: "Duration", seconds: 20 }))
      ])
    }))

  it.effect("reports the time every tick and the counter every interval", () =>
    Effect.gen(function*() {
      const { reports } = yield* clock
      yield* TestClock.adjust("10 seconds")
      const of = (channel: ChannelId) => reports.filter((r) => r.channel === channel).map((r) => r.value)
      expect(of(clockGetters.currentTime)).toHaveLength(11)
      expect(of(clockGetters.currentTime).at(-1)).toEqual({ _tag: "TimeStamp", epochMillis: morning + 10_000 })
      expect(of(clockGetters.timeOfDay)).toHaveLength(11)
      expect(of(clockGetters.intervals)).toEqual([{ _tag: "Duration", seconds: 0 }, { _tag: "Duration", seconds: 10 }])
    }))

  it.effect("refuses writes and unknown getters", () =>
    Effect.gen(function*() {
      const { adapter } = yield* clock
      const sent = collectReplies<void>()
      yield* adapter.send([{ channel: clockGetters.currentTime, value: { _tag: "TimeStamp", epochMillis: 0 } }], noUser, sent.reply)
      expect(sent.replies.map((r) => Result.isFailure(r.result))).toEqual([true])
      const fetched = collectReplies<Option.Option<Value>>()
      yield* adapter.fetch([ChannelId.make("getter:sundial@clock")], noUser, fetched.reply)
      expect(fetched.replies.map((r) => Result.isFailure(r.result))).toEqual([true])
    }))

  it.effect("is reached through the gateway like any device", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(morning)
      yield* ClockAdapter.start(options)
      const registry = yield* Registry
      const [service] = yield* registry.services([serviceSelector({ id: exactly(clockServiceId) })])
      expect(service).toMatchObject({ adapter: clockAdapterId, properties: { name: "Gateway clock" } })
      const dispatch = yield* Dispatch
      const results = yield* dispatch.fetch([channelSelector({ id: exactly(clockGetters.currentTime) })], noUser)
      expect(results.map((r) => r.result)).toEqual([Result.succeed(Option.some({ _tag: "TimeStamp", epochMillis: morning }))])
    }).pipe(Effect.provide(gatewayTestLayer())))
})
