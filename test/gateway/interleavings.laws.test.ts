import { Clock, Effect, Fiber, Layer, Logger, Option, Result, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { expect } from "vitest"
import { decodeHome, type Home } from "../../src/adapters/simulator/HomeFile.ts"
import { makeSimulatedDevices } from "../../src/adapters/simulator/SimulatedDevices.ts"
import { AdapterId, ChannelId, channelSelector, exactly, kindValueType } from "../../src/domain/index.ts"
import type { Value } from "../../src/domain/index.ts"
import { Dispatch } from "../../src/gateway/Dispatch.ts"
import type { HomeChange } from "../../src/gateway/HomeChange.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { gatewayOn } from "../support/gatewayTestLayer.ts"
import { inMemoryTagStore } from "../support/InMemoryStores.ts"
import { law, type Note } from "../laws/law.ts"

/**
 * Slow reads, writes and home-file saves interleaved at random, on virtual time (TestClock), with the
 * real Registry, Dispatch and simulated devices. Whatever the interleaving: what a channel holds (and so
 * what watchers are told: the Registry reports only what it takes) is what its device holds and of its
 * kind's type, `updated` never goes back, reads answer no value of the wrong type, and an acknowledged
 * write is what a later read answers unless something could have replaced it. And the changes the
 * Registry publishes (what watchers receive) are, per channel, in time order, of the channel's type at
 * that time, and changes: a value published twice in a row for one channel is a false change (a read
 * answering what the channel already holds), unless the channel left or changed kind in between.
 * A law (docs/laws.md): telling when a home change came while a read or a write was in flight.
 */

const STEP = 5
const locals = ["a", "b"] as const
type Local = typeof locals[number]
const getterOf = (local: Local) => ChannelId.make(`getter:${local}@sim`)
const setterOf = (local: Local) => ChannelId.make(`setter:${local}@sim`)

/** True three times out of four: homes whose devices are mostly there keep the interesting races frequent. */
const mostly = fc.integer({ min: 0, max: 3 }).map((n) => n > 0)
const deviceVariant = fc.record({
  present: mostly,
  withSetter: mostly,
  kind: fc.constantFrom("OnOff", "OpenClosed"),
  latency: fc.constantFrom(0, 20, 50, 80)
})
const homeVariant = fc.record({ a: deviceVariant, b: deviceVariant })
type HomeVariant = typeof homeVariant extends fc.Arbitrary<infer A> ? A : never

const initialOf = (kind: string) => (kind === "OnOff" ? { OnOff: "Off" } : { OpenClosed: "Closed" })
const toHome = (variant: HomeVariant): Home => {
  const services = locals.filter((local) => variant[local].present).map((local) => {
    const { kind, latency, withSetter } = variant[local]
    return {
      id: `service:${local}@sim`,
      latency_ms: latency,
      getters: [{ id: getterOf(local), kind, value: initialOf(kind) }],
      setters: withSetter ? [{ id: setterOf(local), kind, drives: getterOf(local) }] : []
    }
  })
  const decoded = decodeHome({ services }, "property")
  if (Result.isFailure(decoded)) throw new Error(decoded.failure.message)
  return decoded.success
}

const value = fc.constantFrom<Value>(
  { _tag: "OnOff", state: "On" },
  { _tag: "OnOff", state: "Off" },
  { _tag: "OpenClosed", state: "Open" },
  { _tag: "OpenClosed", state: "Closed" }
)
const local = fc.constantFrom<Local>(...locals)
const operation = fc.oneof(
  fc.record({ op: fc.constant("fetch" as const), locals: fc.uniqueArray(local, { minLength: 1, maxLength: 2 }) }),
  fc.record({ op: fc.constant("send" as const), local, value }),
  fc.record({ op: fc.constant("save" as const), home: homeVariant })
)
type Operation = typeof operation extends fc.Arbitrary<infer A> ? A : never
const timed = fc.record({ at: fc.integer({ min: 1, max: 20 }).map((n) => n * STEP), operation })
const scenario = fc.record({
  initial: homeVariant,
  operations: fc.array(timed, { minLength: 1, maxLength: 12 })
}).filter(({ operations }) => {
  // One save a step at most, so that the samples between steps see every kind a channel takes.
  const saves = operations.filter((o) => o.operation.op === "save").map((o) => o.at)
  return new Set(saves).size === saves.length
})

interface Done {
  readonly index: number
  readonly start: number
  readonly end: number
  readonly outcome: ReadonlyMap<string, Result.Result<Option.Option<Value>, unknown>> | "saved"
}

const selectorOf = (id: ChannelId) => channelSelector({ id: exactly(id) })
const noUser = { user: Option.none() }

const run = (initial: HomeVariant, operations: ReadonlyArray<{ readonly at: number; readonly operation: Operation }>, note: Note) =>
  Effect.gen(function*() {
    const registry = yield* Registry
    const dispatch = yield* Dispatch
    const devices = yield* makeSimulatedDevices(AdapterId.make("simulator@gateway.local"), registry.register)
    // Every value the Registry publishes, from before the first device connects.
    const published: Array<Extract<HomeChange, { readonly _tag: "ValueReported" }>> = []
    yield* registry.changes.pipe(
      Stream.runForEach((change) =>
        Effect.sync(() => {
          if (change._tag === "ValueReported") published.push(change)
        })
      ),
      Effect.forkScoped({ startImmediately: true })
    )
    let step = 0
    yield* devices.apply(toHome(initial))

    const done: Array<Done> = []
    const fibers = yield* Effect.forEach(operations, ({ at, operation }, index) =>
      Effect.forkChild(Effect.gen(function*() {
        yield* Effect.sleep(at)
        const start = yield* Clock.currentTimeMillis
        let outcome: Done["outcome"] = "saved"
        if (operation.op === "save") yield* devices.apply(toHome(operation.home))
        else if (operation.op === "fetch") {
          const results = yield* dispatch.fetch(operation.locals.map((l: Local) => selectorOf(getterOf(l))), noUser)
          outcome = new Map(results.map((r) => [r.key, r.result]))
        } else {
          const results = yield* dispatch.send([{ selectors: [selectorOf(setterOf(operation.local))], value: operation.value }], noUser)
          outcome = new Map(results.map((r) => [r.key, Result.map(r.result, () => Option.some(operation.value))]))
        }
        done.push({ index, start, end: yield* Clock.currentTimeMillis, outcome })
      })))

    const lastUpdated = new Map<ChannelId, { readonly kind: string; readonly updated: number | null }>()
    /** The type each connected getter takes, at each step. */
    const kinds: Array<Map<ChannelId, string>> = []
    const sample = Effect.gen(function*() {
      const now = new Map<ChannelId, string>()
      for (const l of locals) {
        const record = registry.index.channel(getterOf(l))
        if (record === undefined) {
          lastUpdated.delete(getterOf(l))
          continue
        }
        const type = kindValueType(record.kind)
        now.set(record.id, type)
        // What the channel holds is what its device holds, and of its type.
        if (Option.isSome(record.lastValue)) {
          expect(record.lastValue.value._tag).toBe(type)
          expect(yield* devices.getterValue(record.id)).toEqual(record.lastValue)
        }
        // `updated` never goes back while the channel keeps its kind.
        const before = lastUpdated.get(record.id)
        if (before !== undefined && before.kind === type && before.updated !== null) {
          expect(record.updated ?? -1).toBeGreaterThanOrEqual(before.updated)
        }
        lastUpdated.set(record.id, { kind: type, updated: record.updated })
      }
      kinds.push(now)
    })
    // Each step lets every fiber run until it waits on the clock, the listener included.
    const settle = Effect.repeat(Effect.yieldNow, { times: 20 })
    yield* settle
    yield* sample
    while (done.length < operations.length) {
      yield* TestClock.adjust(STEP)
      yield* settle
      step++
      yield* sample
      expect(step).toBeLessThan(2_000)
    }
    yield* Fiber.joinAll(fibers)
    yield* settle

    // What the Registry published, per channel: in time order, of the channel's type at that time (the
    // kind sampled before or after that step: one save a step at most), and each value a change.
    const stepOf = (at: number) => at / STEP
    const typesBetween = (id: ChannelId, from: number, to: number) =>
      kinds.slice(Math.max(0, from), to + 1).map((k) => k.get(id))
    const lastPublished = new Map<ChannelId, { readonly value: Value; readonly at: number }>()
    for (const { channel, value: v, at } of published) {
      const types = typesBetween(channel, stepOf(at) - 1, stepOf(at))
      expect(types, `${channel} published ${v._tag} at ${at}`).toContain(v._tag)
      const previous = lastPublished.get(channel)
      if (previous !== undefined) {
        expect(at, `${channel} published at ${at} after ${previous.at}`).toBeGreaterThanOrEqual(previous.at)
        // Had the channel left, or changed kind, it would start again with no value: the same value is then news.
        const between = typesBetween(channel, stepOf(previous.at) - 1, stepOf(at))
        const sameChannelThroughout = between.every((type) => type !== undefined && type === between[0])
        if (sameChannelThroughout) expect(v, `${channel} published twice in a row at ${at}`).not.toEqual(previous.value)
      }
      lastPublished.set(channel, { value: v, at })
    }

    // No read answers a value of a type its getter did not take while the read was in flight.
    for (const read of done) {
      if (read.outcome === "saved" || operations[read.index]?.operation.op !== "fetch") continue
      for (const [id, answer] of read.outcome) {
        if (Result.isFailure(answer) || Option.isNone(answer.success)) continue
        // Operations due at a step run before its sample: the sample before shows the kind they began with.
        const types = kinds.slice(Math.max(0, read.start / STEP - 1), read.end / STEP + 1).map((k) => k.get(ChannelId.make(id)))
        expect(types).toContain(answer.success.value._tag)
      }
    }

    // An acknowledged write is what a later read answers, unless a save or another write to the same setter overlaps.
    const sends = done.filter((d) => operations[d.index]?.operation.op === "send")
    const saves = done.filter((d) => d.outcome === "saved")
    for (const read of done.filter((d) => operations[d.index]?.operation.op === "fetch")) {
      if (read.outcome === "saved") continue
      for (const l of locals) {
        const answer = read.outcome.get(getterOf(l))
        if (answer === undefined || Result.isFailure(answer)) continue
        const writes = sends.filter((w) => w.outcome !== "saved" && w.outcome.has(setterOf(l)))
        const acked = writes.filter((w) => w.end < read.start && w.outcome !== "saved" && Result.isSuccess(w.outcome.get(setterOf(l)) ?? Result.fail(0)))
        const last = acked.reduce<Done | undefined>((latest, w) => (latest === undefined || w.end > latest.end ? w : latest), undefined)
        if (last === undefined || last.outcome === "saved") continue
        const overlaps = (d: Done) => d !== last && d.start <= read.end && d.end >= last.start
        if (writes.some(overlaps) || saves.some(overlaps)) continue
        expect(answer.success).toEqual(last.outcome.get(setterOf(l))?.pipe(Result.getOrElse(() => Option.none())))
      }
    }
    const inFlight = (d: Done) => d.outcome !== "saved" && d.start < d.end
    note(saves.some((save) => done.some((d) => inFlight(d) && d.start <= save.start && save.start <= d.end)))
  })

// Tags play no part in these laws: each run's core keeps them in memory rather than opening and
// migrating a SQLite file of its own (most of a run's time).
law("interleavings: reads, writes and home changes never take a value back nor one of the wrong type, and read acknowledged writes", {
  of: "scenarios with a home change while a read or a write was in flight",
  floor: 0.25
}, 200, (note) =>
  fc.asyncProperty(scenario, ({ initial, operations }) =>
    Effect.runPromise(
      Effect.scoped(run(initial, operations, note)).pipe(
        Effect.provide(Layer.mergeAll(gatewayOn(inMemoryTagStore()), TestClock.layer(), Logger.layer([])))
      )
    )),
  // Its full runs take 25 s of a loaded machine; npm test runs half.
  120_000)
