import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option, Result, Scope, Stream } from "effect"
import * as fc from "fast-check"
import {
  ChannelId,
  channelSelector,
  exactly,
  ServiceId,
  Tag,
  type Value,
  type WatchEvent,
  type WatchRegistration
} from "../../src/domain/index.ts"
import type { ServiceDescription } from "../../src/gateway/Adapter.ts"
import type { HomeChange } from "../../src/gateway/HomeChange.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import type { Watcher } from "../../src/gateway/Watcher.ts"
import { WatchHub } from "../../src/gateway/WatchHub.ts"
import { WatchQueue } from "../../src/gateway/WatchQueue.ts"
import { gatewayOn } from "../support/gatewayTestLayer.ts"
import { inMemoryTagStore } from "../support/InMemoryStores.ts"
import { makeRecordingAdapter } from "../support/RecordingAdapter.ts"

/**
 * Current values on registration (docs/reference.md §7) against the race they invite: the home takes a
 * value at once, the watch hub hears of it later (the Watch service feeds it from the Registry's stream
 * of changes, on a fiber of its own that falls behind under load), so a registration may read a value
 * newer than some still on their way to the hub.
 *
 * The real Registry takes value reports, tag edits and registrations in a random order; a WatchHub on
 * its home is fed its changes as the Watch service feeds its own, but only at random points and a random
 * number at a time, so that it lags the home by any amount. (The Watch service's own fiber cannot be
 * held back from a test: a waiting fiber resumes within the publication that wakes it.) Every value
 * reported is larger than the one before, so that "older" is "smaller": whatever the interleaving, each
 * watch receives each channel's values in increasing order (never an older one after a newer one), and
 * ends holding the value the home holds for every channel it watches.
 */

const service = ServiceId.make("service:thermometers@race")
const thermometers = [ChannelId.make("getter:t0@race"), ChannelId.make("getter:t1@race")] as const
const thermometerOf = (pick: number): ChannelId => (pick % 2 === 0 ? thermometers[0] : thermometers[1])
const watched = Tag.make("watched")

const description: ServiceDescription = {
  id: service,
  tags: [],
  properties: {},
  getters: thermometers.map((id) => ({ id, kind: { _tag: "Builtin", name: "Thermostat" }, tags: [], pushMs: 0 })),
  setters: []
}

const degrees = (n: number): Value => ({ _tag: "Temperature", unit: "C", degrees: n })

/** What a target of a registration selects: one thermometer, the live set of those tagged, or both. */
const selection = fc.constantFrom("t0", "t1", "tagged", "both")
type Selection = typeof selection extends fc.Arbitrary<infer A> ? A : never

const registrationOf = (selections: ReadonlyArray<Selection>): WatchRegistration =>
  selections.map((selected) => ({
    selector: channelSelector(
      selected === "tagged"
        ? { tags: [watched] }
        : selected === "both"
        ? { service: exactly(service) }
        : { id: exactly(selected === "t0" ? thermometers[0] : thermometers[1]) }
    ),
    values: { _tag: "Always" },
    topology: true,
    initialValues: true
  }))

const pick = fc.nat({ max: 99 })
const selections = fc.uniqueArray(selection, { minLength: 1, maxLength: 2 })
const step = fc.oneof(
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("Report" as const), pick }) },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("Register" as const), selections }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("Replace" as const), pick, selections }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("Tag" as const), pick, add: fc.boolean() }) },
  // The hub takes up to `count` of the changes waiting for it.
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("CatchUp" as const), count: fc.integer({ min: 1, max: 4 }) }) }
)
type Step = typeof step extends fc.Arbitrary<infer A> ? A : never

/** The degrees of the values each channel's events carried, in the order they came. */
const valuesPerChannel = (events: ReadonlyArray<WatchEvent>): Map<ChannelId, Array<number>> => {
  const out = new Map<ChannelId, Array<number>>()
  for (const event of events) {
    if (event._tag !== "ValueChanged" || event.value._tag !== "Temperature") continue
    out.set(event.channel, [...(out.get(event.channel) ?? []), event.value.degrees])
  }
  return out
}

/** `broadFrom`: the hub's threshold of a broad watcher (WatchHub): 1 makes every watcher broad, Infinity none. */
const run = (steps: ReadonlyArray<Step>, broadFrom: number) =>
  Effect.gen(function*() {
    const registry = yield* Registry
    const scope = yield* Scope.make()
    const host = yield* registry.register(makeRecordingAdapter("race").adapter).pipe(Scope.provide(scope))
    const waiting: Array<HomeChange> = []
    let published = 0
    yield* registry.changes.pipe(
      Stream.runForEach((change) => Effect.sync(() => (published++, waiting.push(change)))),
      Effect.forkIn(scope, { startImmediately: true })
    )
    yield* host.upsertService(description)
    const hub = new WatchHub(registry.index, () => Option.none(), broadFrom)
    const watchers: Array<Watcher> = []
    const catchUp = (count: number) => {
      for (const change of waiting.splice(0, count)) hub.apply(change)
    }

    let reported = 0
    for (const s of steps) {
      switch (s._tag) {
        case "Report":
          yield* host.reportValue(thermometerOf(s.pick), degrees(++reported))
          break
        case "Register":
          watchers.push(hub.add(registrationOf(s.selections), new WatchQueue()))
          break
        case "Replace": {
          const chosen = watchers[s.pick % Math.max(watchers.length, 1)]
          if (chosen !== undefined) hub.replace(chosen, registrationOf(s.selections))
          break
        }
        case "Tag":
          yield* registry.retagChannels([thermometerOf(s.pick)], [watched], s.add)
          break
        case "CatchUp":
          catchUp(s.count)
          break
      }
    }
    // The stream may hand a change over a moment after its publication: wait for the last, then take them all.
    const expected = 1 + reported + steps.filter((s) => s._tag === "Tag").length
    while (published < expected) yield* Effect.yieldNow
    catchUp(waiting.length)

    for (const [i, watcher] of watchers.entries()) {
      const events = Result.getOrThrow(watcher.queue.poll())
      const received = valuesPerChannel(events)
      for (const [channel, values] of received) {
        expect(values, `watch ${i}, ${channel}`).toEqual([...values].sort((a, b) => a - b))
      }
      // Ends with the value the home holds for each channel it watches now.
      const inSet = new Set<ChannelId>()
      for (const event of events) {
        if (event._tag === "ChannelAdded") inSet.add(event.channel)
        if (event._tag === "ChannelRemoved") inSet.delete(event.channel)
      }
      for (const channel of inSet) {
        const held = Option.flatMap(Option.fromUndefinedOr(registry.index.channel(channel)), (record) => record.lastValue)
        const last = received.get(channel)?.at(-1)
        expect(last === undefined ? Option.none() : Option.some(degrees(last)), `watch ${i}, ${channel}`).toEqual(held)
      }
    }
    yield* Scope.close(scope, Exit.void)
  })

describe("current values on registration (docs/reference.md §7)", () => {
  // Watchers of few channels are found through the hub's index by channel; broad ones are asked about every value.
  for (const [watchers, broadFrom] of [["indexed", Infinity], ["broad", 1], ["indexed or broad", 2]] as const) {
    it.live(`never deliver an older value after a newer one, and leave every watch with the home's values (watchers ${watchers})`, () =>
      Effect.gen(function*() {
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), (steps) =>
              // Tags in memory: the law is the hub's and the Registry's (both real); a SQLite file per run was most of its time.
              Effect.runPromise(run(steps, broadFrom).pipe(Effect.provide(gatewayOn(inMemoryTagStore()))))),
            { numRuns: 100 }
          )
        )
      }), 120_000)
  }
})
