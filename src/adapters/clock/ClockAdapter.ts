import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import type { Adapter, DeviceHost, DeviceRejected, ServiceDescription } from "../../gateway/Adapter.ts"
import { AdapterId, ChannelId, ServiceId, Tag } from "../../domain/Identifier.ts"
import { builtinKind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import { Registry } from "../../gateway/Registry.ts"

/**
 * The clock: a device every gateway has, telling the time. It reports on a schedule and answers
 * fetches from Effect's `Clock`, so that tests drive it with `TestClock`.
 */
export const clockAdapterId = AdapterId.make("clock@gateway.local")
export const clockServiceId = ServiceId.make("service:clock@clock")
export const clockGetters = {
  /** CurrentTime: now (TimeStamp). */
  currentTime: ChannelId.make("getter:current-time@clock"),
  /** CurrentTimeOfDay: seconds since midnight (Duration), midnight in UTC: the gateway knows no time zone. */
  timeOfDay: ChannelId.make("getter:time-of-day@clock"),
  /** CountEveryInterval: seconds since the clock started, counted in whole intervals (Duration). */
  intervals: ChannelId.make("getter:interval-count@clock")
} as const

export interface ClockOptions {
  /** How often the current time and the time of day are reported. */
  readonly tick: Duration.Input
  /** The interval the counter counts, reported once per interval. */
  readonly interval: Duration.Input
}

export const defaultClockOptions: ClockOptions = { tick: Duration.seconds(1), interval: Duration.seconds(60) }

const dayMillis = 24 * 60 * 60 * 1000

export const clockDescription: ServiceDescription = {
  id: clockServiceId,
  tags: [Tag.make("clock")],
  properties: { name: "Gateway clock", model: "Built-in clock" },
  getters: [
    { id: clockGetters.currentTime, kind: builtinKind("CurrentTime"), tags: [], pushMs: 0 },
    { id: clockGetters.timeOfDay, kind: builtinKind("CurrentTimeOfDay"), tags: [], pushMs: 0 },
    { id: clockGetters.intervals, kind: builtinKind("CountEveryInterval"), tags: [], pushMs: 0 }
  ],
  setters: []
}

/** Connects the clock through `connect` (the Registry's `register`) and reports its values in the scope. */
const connect = Effect.fnUntraced(function*(
  register: (adapter: Adapter) => Effect.Effect<DeviceHost, never, Scope.Scope>,
  options: ClockOptions = defaultClockOptions
) {
  const startedAt = yield* Clock.currentTimeMillis
  const intervalMs = Duration.toMillis(options.interval)

  const readingOf = (channel: ChannelId, now: number): Option.Option<Value> => {
    switch (channel) {
      case clockGetters.currentTime:
        return Option.some({ _tag: "TimeStamp", epochMillis: now })
      case clockGetters.timeOfDay:
        return Option.some({ _tag: "Duration", seconds: (now % dayMillis) / 1000 })
      case clockGetters.intervals:
        return Option.some({ _tag: "Duration", seconds: (Math.floor((now - startedAt) / intervalMs) * intervalMs) / 1000 })
      default:
        return Option.none()
    }
  }

  const adapter: Adapter = {
    id: clockAdapterId,
    fetch: Effect.fnUntraced(function*(channels, _context, reply) {
      const now = yield* Clock.currentTimeMillis
      for (const channel of channels) {
        const value = readingOf(channel, now)
        yield* reply(channel, Option.isSome(value) ? Result.succeed(value) : Result.fail(`the clock has no getter ${channel}`))
      }
    }),
    send: Effect.fnUntraced(function*(writes, _context, reply) {
      for (const { channel } of writes) yield* reply(channel, Result.fail(`the clock has no setter ${channel}`))
    }),
    refusesWatch: () => Option.none()
  }

  const host = yield* register(adapter)
  yield* host.upsertService(clockDescription)

  const report = (channels: ReadonlyArray<ChannelId>) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      for (const channel of channels) {
        const value = readingOf(channel, now)
        if (Option.isSome(value)) yield* host.reportValue(channel, value.value)
      }
    })
  yield* report([clockGetters.currentTime, clockGetters.timeOfDay]).pipe(
    Effect.repeat(Schedule.fixed(options.tick)),
    Effect.forkScoped
  )
  yield* report([clockGetters.intervals]).pipe(Effect.repeat(Schedule.fixed(options.interval)), Effect.forkScoped)
})

/** Connects the clock through the Registry for as long as the scope lasts. */
const start = (options: ClockOptions = defaultClockOptions): Effect.Effect<void, DeviceRejected, Registry | Scope.Scope> =>
  Effect.gen(function*() {
    const registry = yield* Registry
    yield* connect(registry.register, options)
  })

/** The built-in clock adapter (`clock@gateway.local`). */
export const ClockAdapter = {
  connect,
  start,
  layer: (options: ClockOptions = defaultClockOptions) => Layer.effectDiscard(start(options))
}
