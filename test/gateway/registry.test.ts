import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Logger, Option, Scope, Stream } from "effect"
import { TestClock } from "effect/testing"
import { anyService, ChannelId, ServiceId, Tag } from "../../src/domain/index.ts"
import type { HomeChange } from "../../src/gateway/HomeChange.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { Tags } from "../../src/gateway/Tags.ts"
import { gatewayTestLayer } from "../support/gatewayTestLayer.ts"
import { lightDescription, makeRecordingAdapter } from "../support/RecordingAdapter.ts"

const on = { _tag: "OnOff", state: "On" } as const
const getterOne = ChannelId.make("getter:one@a")

/** Starts collecting the registry's next `n` changes before `act` runs, and returns them. */
const changesDuring = (n: number, act: Effect.Effect<void, unknown, Registry | Tags>) =>
  Effect.gen(function*() {
    const registry = yield* Registry
    const collecting = yield* registry.changes.pipe(Stream.take(n), Stream.runCollect, Effect.forkScoped)
    yield* Effect.yieldNow
    yield* act
    return [...yield* Fiber.join(collecting)] as ReadonlyArray<HomeChange>
  })

/** Whether a report's effect is its successful end already: the report was taken as it was made. */
const isOver = (effect: Effect.Effect<void>): boolean => Exit.isExit(effect) && Exit.isSuccess(effect)

describe("registry", () => {
  it.live("publishes connections, re-tags, values and disconnections as changes", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const host = yield* registry.register(makeRecordingAdapter("a").adapter)
      const changes = yield* changesDuring(
        4,
        Effect.gen(function*() {
          yield* host.upsertService(lightDescription("one", "a"))
          yield* (yield* Tags).tagServices("add", [anyService], [Tag.make("kitchen")])
          yield* host.reportValue(getterOne, on)
          yield* host.removeService(ServiceId.make("service:one@a"))
        })
      )
      const both = ["getter:one@a", "setter:one@a"]
      expect(changes.map((c) => c._tag === "ChannelsChanged" ? [...c.channels].sort() : c.channel)).toEqual([both, both, "getter:one@a", both])
      expect(changes[2]).toMatchObject({ _tag: "ValueReported", value: on, at: expect.any(Number) })
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("sets updated only when a reported value changes, and last_seen on every report", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const host = yield* registry.register(makeRecordingAdapter("a").adapter)
      yield* host.upsertService(lightDescription("one", "a"))
      const getter = () => Effect.sync(() => registry.index.channel(getterOne))
      yield* host.reportValue(getterOne, on)
      const first = yield* getter()
      const updated = first?.updated
      expect(updated).toEqual(expect.any(Number))
      yield* Effect.sleep("5 millis")
      yield* host.reportValue(getterOne, on)
      const second = yield* getter()
      expect(second?.updated).toBe(updated)
      expect(second?.lastSeen).toBeGreaterThan(updated ?? Infinity)
      expect(second?.lastValue).toEqual(Option.some(on))
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.effect("takes a value reported now before the call returns, on the clock of the fiber that reports it", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const host = yield* registry.register(makeRecordingAdapter("a").adapter)
      yield* host.upsertService(lightDescription("one", "a"))
      yield* TestClock.setTime(1_000_000)
      const changes = yield* changesDuring(1, Effect.sync(() => {
        // Taken already: what it returns is its end, and the index holds the value.
        expect(isOver(host.reportValueNow(getterOne, on))).toBe(true)
        expect(registry.index.channel(getterOne)).toMatchObject({ lastValue: Option.some(on), updated: 1_000_000 })
      }))
      expect(changes).toMatchObject([{ _tag: "ValueReported", channel: getterOne, value: on, at: 1_000_000 }])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.effect("drops a value reported now for another adapter's channel, or of the wrong type, with a warning for the type", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const mine = yield* registry.register(makeRecordingAdapter("a").adapter)
      const other = yield* registry.register(makeRecordingAdapter("b").adapter)
      yield* mine.upsertService(lightDescription("one", "a"))
      const logged: Array<unknown> = []
      const pending = yield* Effect.sync(() => {
        expect(isOver(other.reportValueNow(getterOne, on))).toBe(true)
        return mine.reportValueNow(getterOne, { _tag: "String", value: "3" })
      })
      expect(isOver(pending)).toBe(false)
      yield* pending.pipe(Effect.provide(Logger.layer([Logger.make(({ message }) => void logged.push(message))])))
      expect(logged).toEqual([["getter:one@a takes OnOff values: a String reported for it was dropped"]])
      expect(registry.index.channel(getterOne)?.lastValue).toEqual(Option.none())
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("publishes every event, the same one twice in a row included, and keeps the last as the value", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const host = yield* registry.register(makeRecordingAdapter("a").adapter)
      yield* host.upsertService(lightDescription("one", "a"))
      const changes = yield* changesDuring(
        3,
        Effect.gen(function*() {
          yield* host.reportEvent(getterOne, on)
          yield* Effect.sleep("5 millis")
          yield* host.reportEvent(getterOne, on)
          yield* host.reportValue(getterOne, on)
          yield* host.reportEvent(getterOne, on)
        })
      )
      expect(changes.map((c) => c._tag === "ValueReported" ? [c.channel, c.value] : c._tag)).toEqual([
        [getterOne, on],
        [getterOne, on],
        [getterOne, on]
      ])
      const [first, second] = changes
      expect(second?._tag === "ValueReported" && first?._tag === "ValueReported" && second.at > first.at).toBe(true)
      const record = registry.index.channel(getterOne)
      expect(record?.lastValue).toEqual(Option.some(on))
      expect(record?.updated).toBe(changes[2]?._tag === "ValueReported" ? changes[2].at : undefined)
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("refuses a device whose channel already belongs to another device", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const host = yield* registry.register(makeRecordingAdapter("a").adapter)
      yield* host.upsertService(lightDescription("one", "a"))
      const clash = { ...lightDescription("one", "a"), id: ServiceId.make("service:other@a") }
      const refused = yield* Effect.flip(host.upsertService(clash))
      expect(refused.message).toBe("channel getter:one@a already belongs to service service:one@a")
      expect((yield* registry.services([anyService])).map((s) => s.id)).toEqual(["service:one@a"])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("refuses a device that lists a channel twice, whether it has a few channels or many", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const host = yield* registry.register(makeRecordingAdapter("a").adapter)
      const light = lightDescription("twice", "a")
      const [getter] = light.getters
      const many = Array.from({ length: 40 }, (_, i) => ({
        id: ChannelId.make(`setter:twice-${i}@a`),
        kind: { _tag: "Builtin", name: "OnOff" } as const,
        tags: [],
        pushMs: 0
      }))
      const refusals = yield* Effect.all([
        // The setter carries the getter's id.
        Effect.flip(host.upsertService({ ...light, setters: light.getters })),
        Effect.flip(host.upsertService({ ...light, setters: [...many, ...light.getters] })),
        Effect.flip(host.upsertService({ ...light, getters: [...light.getters, ...many.slice(0, 1)], setters: many.slice(1, 20).concat(many.slice(0, 1)) }))
      ])
      expect(refusals.map((refused) => refused.message)).toEqual([
        `channel ${getter?.id} appears twice in service service:twice@a`,
        `channel ${getter?.id} appears twice in service service:twice@a`,
        "channel setter:twice-0@a appears twice in service service:twice@a"
      ])
      expect(yield* registry.services([anyService])).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("connects many devices as one change, with their first values, and answers those it refuses", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const host = yield* registry.register(makeRecordingAdapter("a").adapter)
      yield* host.upsertService(lightDescription("one", "a"))
      const clash = { ...lightDescription("one", "a"), id: ServiceId.make("service:clash@a") }
      const getterTwo = ChannelId.make("getter:two@a")
      const off = { _tag: "OnOff", state: "Off" } as const
      let refused: ReadonlyArray<{ readonly id: string; readonly reason: string }> = []
      const changes = yield* changesDuring(
        3,
        Effect.gen(function*() {
          refused = yield* host.upsertServices([
            // Already connected with no value: the same device, now with one.
            { service: lightDescription("one", "a"), firstValues: [{ channel: getterOne, value: on }] },
            { service: clash, firstValues: [{ channel: getterOne, value: off }] },
            // A value its kind cannot carry is dropped, as a report of it would be.
            { service: lightDescription("two", "a"), firstValues: [{ channel: getterTwo, value: off }, { channel: getterTwo, value: { _tag: "Unit" } }] }
          ])
        })
      )
      expect(refused).toEqual([{ id: "service:clash@a", reason: "channel getter:one@a already belongs to service service:one@a" }])
      expect(changes.map((c) => c._tag === "ChannelsChanged" ? [...c.channels].sort() : [c.channel, c.value])).toEqual([
        ["getter:one@a", "getter:two@a", "setter:one@a", "setter:two@a"],
        [getterOne, on],
        [getterTwo, off]
      ])
      expect((yield* registry.services([anyService])).map((s) => s.id)).toEqual(["service:one@a", "service:two@a"])
      const two = registry.index.channel(getterTwo)
      expect(two?.lastValue).toEqual(Option.some(off))
      expect(two?.updated).toBe(changes[2]?._tag === "ValueReported" ? changes[2].at : undefined)
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("disconnects an adapter's devices when its scope closes", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      yield* Effect.gen(function*() {
        const host = yield* registry.register(makeRecordingAdapter("a").adapter)
        yield* host.upsertService(lightDescription("one", "a"))
        expect(yield* registry.services([anyService])).toHaveLength(1)
      }).pipe(Effect.scoped)
      expect(yield* registry.services([anyService])).toEqual([])
      expect(registry.adapter(makeRecordingAdapter("a").adapter.id)).toEqual(Option.none())
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("tells of an adapter's devices leaving as one change naming their channels, when its scope closes", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const other = yield* registry.register(makeRecordingAdapter("b").adapter)
      yield* other.upsertService(lightDescription("three", "b"))
      const closing = yield* Scope.make()
      const host = yield* registry.register(makeRecordingAdapter("a").adapter).pipe(Scope.provide(closing))
      yield* host.upsertService(lightDescription("one", "a"))
      yield* host.upsertService(lightDescription("two", "a"))
      const changes = yield* changesDuring(2, Effect.andThen(Scope.close(closing, Exit.void), other.removeService(ServiceId.make("service:three@b"))))
      expect(changes).toEqual([
        { _tag: "ChannelsChanged", channels: ["getter:one@a", "setter:one@a", "getter:two@a", "setter:two@a"] },
        { _tag: "ChannelsChanged", channels: ["getter:three@b", "setter:three@b"] }
      ])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))
})
