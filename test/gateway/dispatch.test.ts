import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { AdapterId, anyChannel, ChannelId, channelSelector, exactly, ServiceId } from "../../src/domain/index.ts"
import type { SendTarget, Value } from "../../src/domain/index.ts"
import type { Adapter } from "../../src/gateway/Adapter.ts"
import { Dispatch } from "../../src/gateway/Dispatch.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { gatewayTestLayer } from "../support/gatewayTestLayer.ts"
import { type Behaviour, lightDescription, makeRecordingAdapter } from "../support/RecordingAdapter.ts"

const on: Value = { _tag: "OnOff", state: "On" }
const off: Value = { _tag: "OnOff", state: "Off" }
const setter = (local: string, adapter: string) => ChannelId.make(`setter:${local}@${adapter}`)
const getter = (local: string, adapter: string) => ChannelId.make(`getter:${local}@${adapter}`)
const byId = (id: ChannelId) => channelSelector({ id: exactly(id) })
const noUser = { user: Option.none() }

/** Two adapters, `a` and `b`, each with three lights; `behaviour` decides how adapter b's devices answer. */
const twoAdapters = (behaviour: (channel: ChannelId) => Behaviour = () => "answer") =>
  Effect.gen(function*() {
    const registry = yield* Registry
    const a = makeRecordingAdapter("a")
    const b = makeRecordingAdapter("b", behaviour)
    const hostA = yield* registry.register(a.adapter)
    const hostB = yield* registry.register(b.adapter)
    for (const local of ["one", "two", "three"]) {
      yield* hostA.upsertService(lightDescription(local, "a"))
      yield* hostB.upsertService(lightDescription(local, "b"))
    }
    return { a, b }
  })

const send = (targets: ReadonlyArray<SendTarget>) =>
  Effect.gen(function*() {
    const dispatch = yield* Dispatch
    return yield* dispatch.send(targets, noUser)
  })
const outcomes = <A>(results: ReadonlyArray<{ key: string; result: Result.Result<A, unknown> }>) =>
  Object.fromEntries(results.map((r) => [r.key, Result.isSuccess(r.result) ? "ok" : r.result.failure]))

describe("dispatch", () => {
  it.live("calls each adapter once per request, with all its values", () =>
    Effect.gen(function*() {
      const { a, b } = yield* twoAdapters()
      const results = yield* send([{ selectors: [channelSelector({ mechanism: exactly("setter") })], value: on }])
      expect(results).toHaveLength(6)
      expect(a.sends).toHaveLength(1)
      expect(b.sends).toHaveLength(1)
      expect(a.sends[0]).toHaveLength(3)
      expect(b.sends[0]).toHaveLength(3)
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("lets the last value sent to a setter in one request win", () =>
    Effect.gen(function*() {
      const { a } = yield* twoAdapters()
      const id = setter("one", "a")
      yield* send([{ selectors: [byId(id)], value: on }, { selectors: [byId(id)], value: off }])
      expect(a.sends).toEqual([[{ channel: id, value: off }]])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("lets a later target's value of the wrong type take a setter from an earlier write, and the other way round", () =>
    Effect.gen(function*() {
      const { a } = yield* twoAdapters()
      const one = setter("one", "a")
      const two = setter("two", "a")
      const unit: Value = { _tag: "Unit" }
      const results = yield* send([
        { selectors: [byId(one)], value: on },
        { selectors: [byId(one), byId(two)], value: unit },
        { selectors: [byId(two)], value: off }
      ])
      expect(outcomes(results)).toEqual({ [one]: { _tag: "TypeMismatch", expected: "OnOff", got: "Unit" }, [two]: "ok" })
      expect(a.sends).toEqual([[{ channel: two, value: off }]])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("reports a TypeMismatch for one channel and still writes the others", () =>
    Effect.gen(function*() {
      const { a } = yield* twoAdapters()
      const registry = yield* Registry
      const host = yield* registry.register(makeRecordingAdapter("c").adapter)
      yield* host.upsertService({
        id: ServiceId.make("service:bell@c"),
        tags: [],
        properties: {},
        getters: [],
        setters: [{ id: ChannelId.make("setter:bell@c"), kind: { _tag: "Builtin", name: "Ready" }, tags: [], pushMs: 0 }]
      })
      const results = yield* send([{ selectors: [byId(setter("one", "a")), byId(ChannelId.make("setter:bell@c"))], value: on }])
      expect(outcomes(results)).toEqual({
        "setter:bell@c": { _tag: "TypeMismatch", expected: "Unit", got: "OnOff" },
        "setter:one@a": "ok"
      })
      expect(a.values.get(setter("one", "a"))).toEqual(on)
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("turns a hung device into a per-channel error after the device timeout, and answers the rest", () =>
    Effect.gen(function*() {
      yield* twoAdapters((channel) => (channel === setter("two", "b") ? "hang" : "answer"))
      const results = yield* send([{ selectors: [channelSelector({ mechanism: exactly("setter") })], value: on }])
      const byKey = outcomes(results)
      expect(byKey[setter("two", "b")]).toEqual({ _tag: "DeviceFailure", message: "device did not answer within 150 ms" })
      expect(Object.values(byKey).filter((o) => o === "ok")).toHaveLength(5)
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer({ deviceTimeoutMs: 150 }))))

  it.live("keeps a failing device's error to its own channels", () =>
    Effect.gen(function*() {
      yield* twoAdapters(() => "fail")
      const results = yield* (yield* Dispatch).fetch([anyChannel], noUser)
      const byKey = outcomes(results)
      expect(byKey[getter("one", "b")]).toEqual({ _tag: "DeviceFailure", message: "the device is on fire" })
      expect(byKey[getter("one", "a")]).toBe("ok")
      expect(Object.keys(byKey)).toHaveLength(6)
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("answers NoSuchSetter, NoSuchGetter and NoSuchService for what the selectors name but is not there", () =>
    Effect.gen(function*() {
      yield* twoAdapters()
      const dispatch = yield* Dispatch
      const sent = yield* dispatch.send([
        { selectors: [byId(ChannelId.make("setter:nope@a")), byId(getter("one", "a"))], value: on },
        { selectors: [channelSelector({ service: exactly(ServiceId.make("service:nope@a")) })], value: on }
      ], noUser)
      expect(outcomes(sent)).toEqual({
        "getter:one@a": { _tag: "NoSuchSetter", id: "getter:one@a" },
        "service:nope@a": { _tag: "NoSuchService", id: "service:nope@a" },
        "setter:nope@a": { _tag: "NoSuchSetter", id: "setter:nope@a" }
      })
      const fetched = yield* dispatch.fetch([byId(setter("one", "a"))], noUser)
      expect(outcomes(fetched)).toEqual({ "setter:one@a": { _tag: "NoSuchGetter", id: "setter:one@a" } })
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("reads None for a getter with no value yet, and passes the caller's user to the adapter", () =>
    Effect.gen(function*() {
      const { a } = yield* twoAdapters()
      const dispatch = yield* Dispatch
      const user = { user: Option.some({ name: "ada" }) }
      const results = yield* dispatch.fetch([byId(getter("one", "a"))], user)
      expect(results).toEqual([{ key: getter("one", "a"), result: Result.succeed(Option.none()) }])
      expect(a.contexts).toEqual([user])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.live("sets a setter's `updated` when a value is sent to it", () =>
    Effect.gen(function*() {
      yield* twoAdapters()
      const registry = yield* Registry
      const [before] = yield* registry.channels([byId(setter("one", "a"))])
      expect(before?.updated).toBeNull()
      yield* send([{ selectors: [byId(setter("one", "a"))], value: on }])
      const [after] = yield* registry.channels([byId(setter("one", "a"))])
      expect(after?.updated).toEqual(expect.any(Number))
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  describe("made now (a route's program, made outside any fiber)", () => {
    /** Devices whose state is in memory, answering at once (`reply.now`), as the simulator's and MQTT's do. */
    const answeringAtOnce: Adapter = {
      id: AdapterId.make("now@test"),
      fetch: (channels, _context, reply) => {
        for (const channel of channels) reply.now(channel, Result.succeed(Option.some(on)))
        return Effect.void
      },
      send: (writes, _context, reply) => {
        for (const { channel } of writes) reply.now(channel, Result.void)
        return Effect.void
      },
      refusesWatch: () => Option.none()
    }

    /** What `make` returns, called in a callback of Node's, where no fiber runs. */
    const outsideAnyFiber = <A>(make: () => A) => Effect.promise(() => new Promise<A>((resolve) => setImmediate(() => resolve(make()))))

    it.effect("is done when every device answers at once, and stamps the read and the write on the gateway's clock", () =>
      Effect.gen(function*() {
        const registry = yield* Registry
        const host = yield* registry.register(answeringAtOnce)
        yield* host.upsertService(lightDescription("lamp", "now"))
        yield* TestClock.adjust("5 seconds")
        const dispatch = yield* Dispatch
        const [read, sent] = yield* outsideAnyFiber(() => [
          dispatch.fetchNow([byId(getter("lamp", "now"))], noUser),
          dispatch.sendNow([{ selectors: [byId(setter("lamp", "now"))], value: off }], noUser)
        ] as const)
        expect(Exit.isExit(read) && Exit.isExit(sent)).toBe(true)
        expect(yield* read).toEqual([{ key: getter("lamp", "now"), result: Result.succeed(Option.some(on)) }])
        expect(outcomes(yield* sent)).toEqual({ [setter("lamp", "now")]: "ok" })
        expect(registry.index.channel(getter("lamp", "now"))?.lastSeen).toBe(5_000)
        expect(registry.index.channel(setter("lamp", "now"))?.updated).toBe(5_000)
      }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

    it.live("leaves a device that answers later to the fiber that runs what it returns", () =>
      Effect.gen(function*() {
        yield* twoAdapters()
        const dispatch = yield* Dispatch
        const read = yield* outsideAnyFiber(() => dispatch.fetchNow([byId(getter("one", "a"))], noUser))
        expect(Exit.isExit(read)).toBe(false)
        expect(yield* read).toEqual([{ key: getter("one", "a"), result: Result.succeed(Option.none()) }])
      }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))
  })
})
