import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Result, Stream } from "effect"
import { scopeWatchRegistration } from "../../src/domain/Access.ts"
import { anyChannel, ChannelId, channelSelector, exactly, ServiceId, Tag, type Value, type WatchEvent, type WatchRegistration } from "../../src/domain/index.ts"
import type { ServiceDescription } from "../../src/gateway/Adapter.ts"
import type { HomeChange } from "../../src/gateway/HomeChange.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import type { Watcher } from "../../src/gateway/Watcher.ts"
import { WatchHub } from "../../src/gateway/WatchHub.ts"
import { WatchQueue } from "../../src/gateway/WatchQueue.ts"
import { gatewayTestLayer } from "../support/gatewayTestLayer.ts"
import { makeRecordingAdapter } from "../support/RecordingAdapter.ts"

/**
 * The watch hub's registrations (src/gateway/WatchHub.ts): a replacement's events in id order, the channels
 * leaving merged among those joining, and a watcher's values whether the hub finds it through its index by
 * channel or asks it about every value (a broad watcher: here from 3 channels, so that a small home has both).
 */

const getters = ["a", "b", "c", "d", "e", "f"].map((local) => ChannelId.make(`getter:${local}@hub`))
const description: ServiceDescription = {
  id: ServiceId.make("service:six@hub"),
  tags: [],
  properties: {},
  getters: getters.map((id) => ({ id, kind: { _tag: "Builtin", name: "OnOff" }, tags: [], pushMs: 0 })),
  setters: []
}
/** On, then Off, then On…: a value equal to the channel's last is no change, and reaches no one. */
const flipped = (reports: number): Value => ({ _tag: "OnOff", state: reports % 2 === 0 ? "On" : "Off" })

/** A registration of the getters at `indexes`, one target each, values and topology. */
const watching = (...indexes: ReadonlyArray<number>): WatchRegistration =>
  indexes.flatMap((i) => {
    const id = getters[i]
    return id === undefined ? [] : [{ selector: { ...anyChannel, id: exactly(id) }, values: { _tag: "Always" } as const, topology: true, initialValues: false }]
  })

/** What the events say, one line each, for comparing whole sequences. */
const said = (events: ReadonlyArray<WatchEvent>) => events.map((event) => `${event._tag} ${event.channel}`)

const taken = (watcher: Watcher) => said(Result.getOrThrow(watcher.queue.poll()))

/** A home of six getters, a hub on it (broad from 3 channels), and the device's value reports, applied to the hub as they come. */
const hubOnSixGetters = Effect.gen(function*() {
  const registry = yield* Registry
  const host = yield* registry.register(makeRecordingAdapter("hub").adapter)
  yield* host.upsertService(description)
  const hub = new WatchHub(registry.index, () => Option.none(), 3)
  const waiting: Array<HomeChange> = []
  yield* registry.changes.pipe(
    Stream.runForEach((change) => Effect.sync(() => waiting.push(change))),
    Effect.forkScoped({ startImmediately: true })
  )
  const reports = new Map<number, number>()
  const report = (i: number) =>
    Effect.gen(function*() {
      const id = getters[i]
      if (id === undefined) return
      const count = reports.get(i) ?? 0
      reports.set(i, count + 1)
      yield* host.reportValue(id, flipped(count))
      while (waiting.length === 0) yield* Effect.yieldNow
      for (const change of waiting.splice(0)) hub.apply(change)
    })
  return { hub, host, registry, report }
})

describe("the watch hub", () => {
  it.effect("replaces a registration with its removals and additions merged in id order", () =>
    Effect.gen(function*() {
      const { hub } = yield* hubOnSixGetters
      const watcher = hub.add(watching(0, 2, 4), new WatchQueue())
      expect(taken(watcher)).toEqual([0, 2, 4].map((i) => `ChannelAdded ${getters[i]}`))
      hub.replace(watcher, watching(1, 2, 5))
      expect(taken(watcher)).toEqual([
        `ChannelRemoved ${getters[0]}`,
        `ChannelAdded ${getters[1]}`,
        `ChannelRemoved ${getters[4]}`,
        `ChannelAdded ${getters[5]}`
      ])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.effect("delivers the values of the channels a watcher watches as it turns broad and back, and none of the others", () =>
    Effect.gen(function*() {
      const { hub, report } = yield* hubOnSixGetters
      // Two channels: found through the index.
      const watcher = hub.add(watching(0, 1), new WatchQueue())
      taken(watcher)
      yield* report(0)
      yield* report(2)
      expect(taken(watcher)).toEqual([`ValueChanged ${getters[0]}`])
      // Four: broad.
      hub.replace(watcher, watching(0, 2, 3, 4))
      taken(watcher)
      yield* report(1)
      yield* report(2)
      expect(taken(watcher)).toEqual([`ValueChanged ${getters[2]}`])
      // One again: indexed, the broad watcher's other channels forgotten.
      hub.replace(watcher, watching(5))
      taken(watcher)
      yield* report(3)
      yield* report(5)
      expect(taken(watcher)).toEqual([`ValueChanged ${getters[5]}`])
      hub.remove(watcher)
      yield* report(5)
      expect(taken(watcher)).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.effect("asks a broad watcher no more once it is removed", () =>
    Effect.gen(function*() {
      const { hub, report } = yield* hubOnSixGetters
      const watcher = hub.add(watching(0, 1, 2, 3, 4, 5), new WatchQueue())
      taken(watcher)
      yield* report(4)
      expect(taken(watcher)).toEqual([`ValueChanged ${getters[4]}`])
      hub.remove(watcher)
      yield* report(3)
      expect(taken(watcher)).toEqual([])
      expect(hub.size).toBe(0)
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))
})

/** Every channel, values and topology, with or without current values. */
const everything = (initialValues: boolean): WatchRegistration => [{ selector: anyChannel, values: { _tag: "Always" }, topology: true, initialValues }]

/** A seventh device, joining the six. */
const seventh = ChannelId.make("getter:g@hub")
const seventhDevice: ServiceDescription = {
  ...description,
  id: ServiceId.make("service:seventh@hub"),
  getters: [{ id: seventh, kind: { _tag: "Builtin", name: "OnOff" }, tags: [], pushMs: 0 }]
}

/** A new watcher's registration events, and the array the queue holds them in (the one a shared answer's watchers share). */
const registered = (hub: WatchHub, registration: WatchRegistration) => {
  const watcher = hub.add(registration, new WatchQueue())
  const run = Result.getOrThrow(watcher.queue.pollRun(Infinity))
  return { events: said(run?.events ?? []), held: run?.events }
}

const added = (...ids: ReadonlyArray<ChannelId>) => ids.map((id) => `ChannelAdded ${id}`)

describe("a registration's answer, shared by the watchers that register the same (RegistrationAnswers)", () => {
  it.effect("is the same for a second watcher, and made anew once a device was added or removed", () =>
    Effect.gen(function*() {
      const { host, hub } = yield* hubOnSixGetters
      const first = registered(hub, everything(false))
      const second = registered(hub, everything(false))
      expect(second.events).toEqual(added(...getters))
      expect(second.held).toBe(first.held)
      yield* host.upsertService(seventhDevice)
      const afterAdding = registered(hub, everything(false))
      expect(afterAdding.events).toEqual(added(...getters, seventh))
      yield* host.removeService(seventhDevice.id)
      yield* host.removeService(description.id)
      expect(registered(hub, everything(false)).events).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.effect("answers a token of narrower scope with its part only, and follows the tags its scope names", () =>
    Effect.gen(function*() {
      const { hub, registry } = yield* hubOnSixGetters
      const mine = Tag.make("mine")
      const byTag = { channels: [channelSelector({ tags: [mine] })], rights: ["watch" as const] }
      const byId = { channels: getters.slice(0, 4).map((id) => channelSelector({ id: exactly(id) })), rights: ["watch" as const] }
      yield* registry.retagChannels(getters.slice(0, 3), [mine], true)
      expect(registered(hub, everything(false)).events).toEqual(added(...getters))
      expect(registered(hub, scopeWatchRegistration(everything(false), Option.some(byTag))).events).toEqual(added(...getters.slice(0, 3)))
      expect(registered(hub, scopeWatchRegistration(everything(false), Option.some(byId))).events).toEqual(added(...getters.slice(0, 4)))
      yield* registry.retagChannels(getters.slice(3, 5), [mine], true)
      expect(registered(hub, scopeWatchRegistration(everything(false), Option.some(byTag))).events).toEqual(added(...getters.slice(0, 5)))
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

  it.effect("hands the current values the home holds now, not those of an earlier answer", () =>
    Effect.gen(function*() {
      const { hub, report } = yield* hubOnSixGetters
      yield* report(0)
      const valueOf0 = (events: ReadonlyArray<string>) => events.filter((line) => line === `ValueChanged ${getters[0]}`).length
      const first = registered(hub, everything(true))
      expect(valueOf0(first.events)).toBe(1)
      yield* report(0)
      const watcher = hub.add(everything(true), new WatchQueue())
      const run = Result.getOrThrow(watcher.queue.pollRun(Infinity))
      expect(run?.events).not.toBe(first.held)
      const value = run?.events.find((event) => event._tag === "ValueChanged" && event.channel === getters[0])
      expect(value).toEqual({ _tag: "ValueChanged", channel: getters[0], value: flipped(1) })
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))
})
