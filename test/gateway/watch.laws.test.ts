import { expect } from "@effect/vitest"
import { afterAll, beforeAll } from "vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import * as fc from "fast-check"
import type { ServiceDescription } from "../../src/gateway/Adapter.ts"
import {
  AdapterId,
  type Channel,
  ChannelId,
  channelMatches,
  type ChannelSelector,
  channelSelector as selectorOf,
  conflict,
  type Constraint,
  empty,
  contains,
  exactly,
  type Kind,
  type ServiceId,
  type Tag,
  type Value,
  valueEquals,
  type WatchEvent,
  type WatchRegistration,
  type WatchTarget
} from "../../src/domain/index.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { Watch } from "../../src/gateway/Watch.ts"
import { TagStore, type TagStoreShape } from "../../src/gateway/TagStore.ts"
import { gatewayOn, sqliteTagStore } from "../support/gatewayTestLayer.ts"
import { makeRecordingAdapter } from "../support/RecordingAdapter.ts"
import { law, type Note } from "../laws/law.ts"
import { type RandomHome, randomHome } from "./randomHome.ts"

/**
 * The law of watching (docs/reference.md §7), against a plain model: for a random home, a random registration
 * and a random sequence of value reports, tag edits, disconnections, reconnections and replacements,
 * the events the Watch service delivers after each step are exactly those the model predicts.
 *
 * Each step ends with a value of a sentinel getter that every registration watches: the service
 * handles changes in order, so the events before the sentinel's are those of the step. Events are
 * compared in order per channel (a channel's addition before its values, its values in the order they
 * were reported: docs/reference.md §7 and §9); the order between channels is free.
 */

const adapterName = "model"
const adapter = AdapterId.make(`${adapterName}@test`)
const extension = { vendor: "v", adapter: "a", kind: "k" } as const
const sentinelService = "service:sentinel@test" as ServiceId
const sentinel = ChannelId.make("channel:sentinel@test")
const extKind: Kind = { _tag: "Extension", ...extension, type: "ExtNumeric" }

/** Values of the channel kinds of randomHome.ts. */
const valueFor = (kind: Kind, n: number): Value => {
  if (kind._tag === "Extension") return { _tag: "ExtNumeric", ...extension, value: n % 4 }
  switch (kind.name) {
    case "OnOff":
      return { _tag: "OnOff", state: n % 2 === 0 ? "On" : "Off" }
    case "OpenClosed":
      return { _tag: "OpenClosed", state: n % 2 === 0 ? "Open" : "Closed" }
    default:
      return { _tag: "Unit" }
  }
}

const rangeValue: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom<Value>({ _tag: "OnOff", state: "On" }, { _tag: "OpenClosed", state: "Closed" }, { _tag: "Unit" }),
  fc.integer({ min: 0, max: 3 }).map((value): Value => ({ _tag: "ExtNumeric", ...extension, value }))
)

const tag = fc.constantFrom("kitchen", "hall", "light", "red") as fc.Arbitrary<Tag>

/** Selectors that often match something: mostly unconstrained fields, at most one tag of each kind. */
const constraint = <A>(values: ReadonlyArray<A>): fc.Arbitrary<Constraint<A>> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant<Constraint<A>>(empty) },
    { weight: 3, arbitrary: fc.constantFrom(...values).map((value) => exactly(value)) },
    { weight: 1, arbitrary: fc.constant<Constraint<A>>(conflict) }
  )
const fewTags = fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: tag.map((t) => [t]) })
const watchSelector: fc.Arbitrary<ChannelSelector> = fc.record({
  id: constraint(Array.from({ length: 8 }, (_, i) => ChannelId.make(`channel:${i}@test`))),
  service: constraint(Array.from({ length: 4 }, (_, i) => `service:${i}@test` as ServiceId)),
  mechanism: fc.constantFrom<Constraint<"getter" | "setter">>(empty, empty, exactly("getter")),
  kind: fc.constantFrom<Constraint<Kind>>(empty, empty, empty, exactly({ _tag: "Builtin", name: "OnOff" }), exactly(extKind)),
  tags: fewTags,
  serviceTags: fewTags
})

const target: fc.Arbitrary<WatchTarget> = fc.record({
  selector: watchSelector,
  values: fc.oneof(
    fc.constant({ _tag: "Never" } as const),
    fc.constant({ _tag: "Always" } as const),
    fc.oneof(
      rangeValue.map((value) => ({ _tag: "Eq", value }) as const),
      rangeValue.map((value) => ({ _tag: "Leq", value }) as const),
      rangeValue.map((value) => ({ _tag: "Geq", value }) as const),
      fc.tuple(rangeValue, rangeValue).map(([low, high]) => ({ _tag: "BetweenEq", low, high }) as const),
      fc.tuple(rangeValue, rangeValue).map(([low, high]) => ({ _tag: "OutOfStrict", low, high }) as const)
    ).map((range) => ({ _tag: "InRange", range }) as const)
  ),
  topology: fc.boolean(),
  initialValues: fc.boolean()
})

const registration = fc.array(target, { minLength: 1, maxLength: 3 })

type Step =
  | { readonly _tag: "Value"; readonly pick: number; readonly n: number }
  | { readonly _tag: "TagChannel"; readonly pick: number; readonly tag: Tag; readonly add: boolean }
  | { readonly _tag: "TagService"; readonly pick: number; readonly tag: Tag; readonly add: boolean }
  | { readonly _tag: "Toggle"; readonly pick: number }
  | { readonly _tag: "Burst"; readonly pick: number; readonly ns: ReadonlyArray<number> }
  | { readonly _tag: "Replace"; readonly registration: WatchRegistration }

const pick = fc.nat({ max: 99 })
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("Value" as const), pick, n: fc.nat({ max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("TagChannel" as const), pick, tag, add: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("TagService" as const), pick, tag, add: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("Toggle" as const), pick }) },
  // Several values of one channel in one step, its service connected first if it was not.
  {
    weight: 2,
    arbitrary: fc.record({ _tag: fc.constant("Burst" as const), pick, ns: fc.array(fc.nat({ max: 3 }), { minLength: 2, maxLength: 5 }) })
  },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("Replace" as const), registration }) }
)

/** The plain model: the home as sets and maps, and docs/reference.md §7 read literally. */

/** `tag` added to (or removed from) the tags the model keeps for `id`. */
const retag = <K>(tagsOf: Map<K, Set<Tag>>, id: K, tag: Tag, add: boolean): void => {
  const tags = tagsOf.get(id) ?? new Set<Tag>()
  if (add) tags.add(tag)
  else tags.delete(tag)
  tagsOf.set(id, tags)
}

class Model {
  readonly connected = new Set<ServiceId>()
  readonly serviceTags = new Map<ServiceId, Set<Tag>>()
  readonly channelTags = new Map<ChannelId, Set<Tag>>()
  readonly lastValue = new Map<ChannelId, Value>()

  constructor(readonly home: RandomHome, public registration: WatchRegistration) {}

  channels(): Array<{ readonly channel: Channel; readonly serviceTags: ReadonlyArray<Tag> }> {
    return this.home.services.filter((s) => this.connected.has(s.id)).flatMap((s) =>
      s.channels.map((c) => ({
        channel: {
          id: c.id,
          service: s.id,
          adapter,
          mechanism: c.getter ? "getter" as const : "setter" as const,
          kind: c.kind,
          tags: [...(this.channelTags.get(c.id) ?? [])].sort(),
          updated: null,
          lastSeen: null,
          pushMs: 0
        },
        serviceTags: [...(this.serviceTags.get(s.id) ?? [])].sort()
      }))
    )
  }

  matching(id: ChannelId): ReadonlyArray<WatchTarget> {
    const found = this.channels().find((c) => c.channel.id === id)
    return found === undefined ? [] : this.registration.filter((t) => channelMatches(t.selector, found.channel, found.serviceTags))
  }

  /** Channels some topology-watching target matches: the set whose changes are announced. */
  visible(): Set<ChannelId> {
    return new Set(this.channels().map((c) => c.channel.id).filter((id) => this.matching(id).some((t) => t.topology)))
  }

  /** Channels some target asking for current values watches for values. */
  handedCurrent(): Set<ChannelId> {
    return new Set(
      this.channels().map((c) => c.channel.id).filter((id) => this.matching(id).some((t) => t.initialValues && t.values._tag !== "Never"))
    )
  }

  /** A device reported `value`: an event if it changed and some matching target's filter lets it through. */
  report(id: ChannelId, value: Value): Array<WatchEvent> {
    if (!this.channels().some((c) => c.channel.id === id)) return []
    const last = this.lastValue.get(id)
    if (last !== undefined && valueEquals(last, value)) return []
    this.lastValue.set(id, value)
    return this.matching(id).some((t) => lets(t, value)) ? [{ _tag: "ValueChanged", channel: id, value }] : []
  }

  /**
   * What changing the home or the registration announces: additions and removals, then the current value
   * of each channel that came to be watched by a target asking for it (of each one such a target watches,
   * when `registering`), if such a target lets it through.
   */
  change(act: () => void, registering = false): Array<WatchEvent> {
    const before = this.visible()
    const handedBefore = registering ? new Set<ChannelId>() : this.handedCurrent()
    act()
    const after = this.visible()
    const current = [...this.handedCurrent()].filter((id) => !handedBefore.has(id)).flatMap((channel): Array<WatchEvent> => {
      const value = this.lastValue.get(channel)
      const wanted = value !== undefined && this.matching(channel).some((t) => t.initialValues && lets(t, value))
      return wanted ? [{ _tag: "ValueChanged", channel, value }] : []
    })
    return [
      ...[...after].filter((id) => !before.has(id)).map((channel): WatchEvent => ({ _tag: "ChannelAdded", channel })),
      ...[...before].filter((id) => !after.has(id)).map((channel): WatchEvent => ({ _tag: "ChannelRemoved", channel })),
      ...current
    ]
  }
}

/** Whether the target's filter lets `value` through. */
const lets = (target: WatchTarget, value: Value): boolean =>
  target.values._tag === "Always" || (target.values._tag === "InRange" && contains(target.values.range, value))

/** Each channel's events, in the order they came. */
const perChannel = (events: ReadonlyArray<WatchEvent>): Record<string, ReadonlyArray<string>> => {
  const out: Record<string, Array<string>> = {}
  for (const event of events) (out[event.channel] ??= []).push(JSON.stringify(event))
  return out
}

const description = (service: RandomHome["services"][number]): ServiceDescription => ({
  id: service.id,
  tags: [],
  properties: {},
  getters: service.channels.filter((c) => c.getter).map((c) => ({ id: c.id, kind: c.kind, tags: [], pushMs: 0 })),
  setters: service.channels.filter((c) => !c.getter).map((c) => ({ id: c.id, kind: c.kind, tags: [], pushMs: 0 }))
})

const sentinelTarget: WatchTarget = {
  selector: selectorOf({ id: exactly(sentinel) }),
  values: { _tag: "Always" },
  topology: false,
  initialValues: false
}

const run = (home: RandomHome, first: WatchRegistration, steps: ReadonlyArray<Step>, note: Note) =>
  Effect.gen(function*() {
    const registry = yield* Registry
    const watch = yield* Watch
    const scope = yield* Scope.make()
    const host = yield* registry.register(makeRecordingAdapter(adapterName).adapter).pipe(Scope.provide(scope))
    const sentinelHome: RandomHome["services"][number] = {
      id: sentinelService,
      tags: [],
      channels: [{ id: sentinel, getter: true, kind: extKind, tags: [] }]
    }
    const all = { services: [...home.services, sentinelHome] }
    const model = new Model(all, [...first, sentinelTarget])
    for (const service of all.services) {
      yield* host.upsertService(description(service))
      model.connected.add(service.id)
      yield* registry.retagServices([service.id], service.tags, true)
      for (const c of service.channels) yield* registry.retagChannels([c.id], c.tags, true)
    }
    for (const s of all.services) model.serviceTags.set(s.id, new Set(s.tags))
    for (const s of all.services) for (const c of s.channels) model.channelTags.set(c.id, new Set(c.tags))

    const session = yield* watch.open(model.registration).pipe(Scope.provide(scope))
    let mark = 100
    /**
     * The events up to the sentinel's next value, which is left out, in the order they came; and any
     * that came after it in the same batch (none should), so that an event out of place is not lost.
     */
    const eventsOfStep = Effect.gen(function*() {
      mark++
      const marker: Value = { _tag: "ExtNumeric", ...extension, value: mark }
      yield* host.reportValue(sentinel, marker)
      model.lastValue.set(sentinel, marker)
      const out: Array<WatchEvent> = []
      let seen = false
      while (!seen) {
        for (const event of yield* session.take) {
          if (event._tag === "ValueChanged" && event.channel === sentinel && valueEquals(event.value, marker)) seen = true
          else out.push(event)
        }
      }
      return out
    })
    const initial = [...model.visible()].map((channel): WatchEvent => ({ _tag: "ChannelAdded", channel }))
    expect(perChannel(yield* eventsOfStep)).toEqual(perChannel(initial))

    const channels = all.services.flatMap((s) => s.channels.map((c) => ({ service: s.id, ...c }))).filter((c) => c.id !== sentinel)
    for (const s of steps) {
      let expected: Array<WatchEvent> = []
      switch (s._tag) {
        case "Value": {
          const channel = channels[s.pick % Math.max(channels.length, 1)]
          if (channel === undefined) break
          const value = valueFor(channel.kind, s.n)
          expected = model.report(channel.id, value)
          yield* host.reportValue(channel.id, value)
          break
        }
        case "TagChannel": {
          const channel = channels[s.pick % Math.max(channels.length, 1)]
          if (channel === undefined) break
          expected = model.change(() => retag(model.channelTags, channel.id, s.tag, s.add))
          yield* registry.retagChannels([channel.id], [s.tag], s.add)
          break
        }
        case "TagService": {
          const service = home.services[s.pick % Math.max(home.services.length, 1)]
          if (service === undefined) break
          expected = model.change(() => retag(model.serviceTags, service.id, s.tag, s.add))
          yield* registry.retagServices([service.id], [s.tag], s.add)
          break
        }
        case "Toggle": {
          const service = home.services[s.pick % Math.max(home.services.length, 1)]
          if (service === undefined) break
          const connected = model.connected.has(service.id)
          expected = model.change(() => {
            if (connected) {
              model.connected.delete(service.id)
              for (const c of service.channels) model.lastValue.delete(c.id)
            } else model.connected.add(service.id)
          })
          if (connected) yield* host.removeService(service.id)
          else yield* host.upsertService(description(service))
          break
        }
        case "Burst": {
          const channel = channels[s.pick % Math.max(channels.length, 1)]
          const service = home.services.find((candidate) => candidate.id === channel?.service)
          if (channel === undefined || service === undefined) break
          if (!model.connected.has(service.id)) {
            expected = model.change(() => model.connected.add(service.id))
            yield* host.upsertService(description(service))
          }
          for (const n of s.ns) {
            const value = valueFor(channel.kind, n)
            expected.push(...model.report(channel.id, value))
            yield* host.reportValue(channel.id, value)
          }
          break
        }
        case "Replace": {
          const next = [...s.registration, sentinelTarget]
          expected = model.change(() => {
            model.registration = next
          }, true)
          yield* session.replace(next)
          break
        }
      }
      const got = yield* eventsOfStep
      expect(perChannel(got), JSON.stringify(s)).toEqual(perChannel(expected))
      note(got.length > 0)
    }
    yield* Scope.close(scope, Exit.void)
  })

/**
 * One SQLite tag store for every run, emptied through its own interface before each (the core reads it
 * when it starts): opening a fresh copy of the database per run was most of a run's set-up.
 */
const storeScope = Effect.runSync(Scope.make())
let store: TagStoreShape | undefined
beforeAll(async () => {
  store = Context.get(await Effect.runPromise(Layer.buildWithScope(sqliteTagStore(), storeScope)), TagStore)
})
afterAll(() => Effect.runPromise(Scope.close(storeScope, Exit.void)))

/** The store without a tag: every tag of every owner removed. */
const emptied = (kept: TagStoreShape) =>
  Effect.flatMap(kept.load(), (all) =>
    Effect.forEach(["service", "channel"] as const, (kind) => Effect.forEach(all[kind], ([id, tags]) => kept.remove(kind, [id], [...tags]))))
    .pipe(Effect.orDie)

/** `effect` on a new core over the file's store, emptied first. */
const onEmptiedStore = <A, E>(effect: Effect.Effect<A, E, Registry | Watch>) =>
  Effect.suspend(() => {
    if (store === undefined) return Effect.die("the tag store did not open")
    return Effect.andThen(emptied(store), effect.pipe(Effect.provide(gatewayOn(Layer.succeed(TagStore)(store)))))
  })

law("watch: the events delivered are those a plain model of docs/reference.md §7 predicts", { of: "steps delivering an event", floor: 0.05 }, 100, (note) =>
  fc.asyncProperty(randomHome, registration, fc.array(step, { minLength: 10, maxLength: 30 }), (home, first, steps) =>
    Effect.runPromise(onEmptiedStore(run(home, first, steps, note)))
  ), 120_000)
