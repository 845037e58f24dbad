import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Logger, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { decodeHome, type Home } from "../../src/adapters/simulator/HomeFile.ts"
import { makeSimulatedDevices } from "../../src/adapters/simulator/SimulatedDevices.ts"
import { ChannelId } from "../../src/domain/Identifier.ts"
import type { Value } from "../../src/domain/Value.ts"
import { collectReplies, makeRecordingHost } from "./recordingHost.ts"

const home = (services: ReadonlyArray<object>, adapter?: string): Home => {
  const result = decodeHome(adapter === undefined ? { services } : { adapter, services }, "test")
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}
const id = (s: string) => ChannelId.make(s)
const on: Value = { _tag: "OnOff", state: "On" }
const off: Value = { _tag: "OnOff", state: "Off" }
const open: Value = { _tag: "OpenClosed", state: "Open" }
const closed: Value = { _tag: "OpenClosed", state: "Closed" }
const noUser = { user: Option.none() }

const sensor = (local: string, extra: object = {}) => ({
  id: `service:${local}@sim`,
  getters: [1, 2, 3].map((n) => ({ id: `getter:${local}-${n}@sim`, kind: "OnOff", value: { OnOff: "On" } })),
  ...extra
})
const lamp = (local: string, extra: object = {}) => ({
  id: `service:${local}@sim`,
  getters: [{ id: `getter:${local}@sim`, kind: "OnOff", value: { OnOff: "Off" } }],
  setters: [
    { id: `setter:${local}@sim`, kind: "OnOff", drives: `getter:${local}@sim` },
    { id: `setter:${local}-log@sim`, kind: "Log" }
  ],
  ...extra
})
const door = (local: string, cycle: object, extra: object = {}) => ({
  id: `service:${local}@sim`,
  getters: [{ id: `getter:${local}@sim`, kind: "OpenClosed", cycle, ...extra }]
})

/** The devices of `initial`, connected to a recording host. */
const simulate = (initial: Home, refused?: ReadonlySet<string>) =>
  Effect.gen(function*() {
    const recording = makeRecordingHost(refused)
    const devices = yield* makeSimulatedDevices(initial.adapter, recording.connect)
    yield* devices.apply(initial)
    return { ...recording, devices }
  })

const fetchIds = (ids: ReadonlyArray<string>) => ids.map(id)

describe("simulated devices", () => {
  it.effect("connects the adapter under the home's id, simulator@gateway.local by default", () =>
    Effect.gen(function*() {
      const plain = yield* simulate(home([sensor("a")]))
      expect(plain.adapters.map((a) => a.id)).toEqual(["simulator@gateway.local"])
      const named = yield* simulate(home([sensor("a")], "lab@example.org"))
      expect(named.adapters.map((a) => a.id)).toEqual(["lab@example.org"])
    }))

  it.effect("connects every device with its initial tags and properties", () =>
    Effect.gen(function*() {
      const { upserts } = yield* simulate(home([
        { ...lamp("a"), tags: ["hall", "light"], properties: { name: "Hall light", model: "Sim bulb" } },
        { ...sensor("b"), getters: [{ id: "getter:b@sim", kind: "Ready", tags: ["motion"] }] }
      ]))
      expect(upserts.map((u) => [u.id, u.tags, u.properties])).toEqual([
        ["service:a@sim", ["hall", "light"], { name: "Hall light", model: "Sim bulb" }],
        ["service:b@sim", [], {}]
      ])
      expect(upserts[1]?.getters).toEqual([{ id: "getter:b@sim", kind: { _tag: "Builtin", name: "Ready" }, tags: ["motion"], pushMs: 0 }])
    }))

  it.effect("answers a fetch with the current values, null for a getter with no value yet, at once", () =>
    Effect.gen(function*() {
      const { devices } = yield* simulate(home([lamp("a"), { id: "service:b@sim", getters: [{ id: "getter:b@sim", kind: "OnOff" }] }]))
      const { replies, reply } = collectReplies<Option.Option<Value>>()
      // Devices without latency answer from memory: the read is over when `fetch` returns.
      const call = devices.adapter.fetch(fetchIds(["getter:a@sim", "getter:b@sim"]), noUser, reply)
      expect(Exit.isExit(call)).toBe(true)
      expect(replies).toEqual([
        { channel: "getter:a@sim", result: Result.succeed(Option.some(off)) },
        { channel: "getter:b@sim", result: Result.succeed(Option.none()) }
      ])
    }))

  it.effect("reports each getter's initial value when it connects, and nothing for a getter without one", () =>
    Effect.gen(function*() {
      const { reports } = yield* simulate(home([
        lamp("a"),
        {
          id: "service:b@sim",
          getters: [
            { id: "getter:b-absent@sim", kind: "OnOff" },
            { id: "getter:b-on@sim", kind: "OnOff", value: { OnOff: "On" } },
            { id: "getter:b-null@sim", kind: "OnOff", value: null }
          ]
        },
        { id: "service:c@sim", getters: [{ id: "getter:c@sim", kind: "OpenClosed", value: { OpenClosed: "Open" } }] }
      ]))
      expect(reports).toEqual([
        { channel: "getter:a@sim", value: off },
        { channel: "getter:b-on@sim", value: on },
        { channel: "getter:c@sim", value: open }
      ])
    }))

  it.effect("waits latency_ms once per batch, not per channel", () =>
    Effect.gen(function*() {
      const { devices } = yield* simulate(home([sensor("a", { latency_ms: 1000 })]))
      const { replies, reply } = collectReplies<Option.Option<Value>>()
      const ids = fetchIds(["getter:a-1@sim", "getter:a-2@sim", "getter:a-3@sim"])
      yield* Effect.forkChild(devices.adapter.fetch(ids, noUser, reply))
      yield* TestClock.adjust(999)
      expect(replies).toEqual([])
      yield* TestClock.adjust(1)
      expect(replies.map((r) => r.channel)).toEqual(ids)
    }))

  it.effect("lets the devices of one batch wait concurrently", () =>
    Effect.gen(function*() {
      const { devices } = yield* simulate(home([sensor("a", { latency_ms: 1000 }), sensor("b", { latency_ms: 1000 }), sensor("c")]))
      const { replies, reply } = collectReplies<Option.Option<Value>>()
      const ids = fetchIds(["getter:a-1@sim", "getter:b-1@sim", "getter:c-1@sim", "getter:a-2@sim"])
      yield* Effect.forkChild(devices.adapter.fetch(ids, noUser, reply))
      yield* TestClock.adjust(0)
      expect(replies.map((r) => r.channel)).toEqual(["getter:c-1@sim"])
      yield* TestClock.adjust(1000)
      expect(replies).toHaveLength(4)
    }))

  it.effect("waits latency_ms once per send batch too", () =>
    Effect.gen(function*() {
      const { devices } = yield* simulate(home([lamp("a", { latency_ms: 500 })]))
      const { replies, reply } = collectReplies<void>()
      const writes = [{ channel: id("setter:a@sim"), value: on }, { channel: id("setter:a-log@sim"), value: { _tag: "String", value: "hi" } as const }]
      yield* Effect.forkChild(devices.adapter.send(writes, noUser, reply))
      yield* TestClock.adjust(499)
      expect(replies).toEqual([])
      expect(yield* devices.getterValue(id("getter:a@sim"))).toEqual(Option.some(off))
      yield* TestClock.adjust(1)
      expect(replies.map((r) => r.result)).toEqual([Result.succeed(undefined), Result.succeed(undefined)])
    }))

  it.effect("fails every fetch and send of a device with fail: error, and writes nothing", () =>
    Effect.gen(function*() {
      const { devices, markReports, reportsSince } = yield* simulate(home([lamp("a", { fail: "error" }), lamp("b")]))
      const connected = markReports()
      const fetched = collectReplies<Option.Option<Value>>()
      yield* devices.adapter.fetch(fetchIds(["getter:a@sim", "getter:b@sim"]), noUser, fetched.reply)
      expect(fetched.replies.map((r) => [r.channel, Result.isFailure(r.result)])).toEqual([["getter:a@sim", true], ["getter:b@sim", false]])
      expect(fetched.replies[0]?.result).toEqual(Result.fail(expect.stringMatching(/service:a@sim/)))
      const sent = collectReplies<void>()
      yield* devices.adapter.send([{ channel: id("setter:a@sim"), value: on }], noUser, sent.reply)
      expect(sent.replies.map((r) => Result.isFailure(r.result))).toEqual([true])
      expect(yield* devices.getterValue(id("getter:a@sim"))).toEqual(Option.some(off))
      expect(yield* devices.lastSent(id("setter:a@sim"))).toEqual(Option.none())
      expect(reportsSince(connected)).toEqual([])
    }))

  it.effect("never answers for a device with fail: timeout, and still answers the others", () =>
    Effect.gen(function*() {
      const { devices } = yield* simulate(home([sensor("a", { fail: "timeout" }), sensor("b")]))
      const { replies, reply } = collectReplies<Option.Option<Value>>()
      const fiber = yield* Effect.forkChild(devices.adapter.fetch(fetchIds(["getter:a-1@sim", "getter:b-1@sim"]), noUser, reply))
      yield* TestClock.adjust("1 hour")
      expect(replies.map((r) => r.channel)).toEqual(["getter:b-1@sim"])
      expect(fiber.pollUnsafe()).toBeUndefined()
    }))

  it.effect("writes a setter's value to the getter it drives and reports it to the host", () =>
    Effect.gen(function*() {
      const { devices, markReports, reportsSince } = yield* simulate(home([lamp("a")]))
      const connected = markReports()
      const { replies, reply } = collectReplies<void>()
      yield* devices.adapter.send([{ channel: id("setter:a@sim"), value: on }], noUser, reply)
      expect(replies).toEqual([{ channel: "setter:a@sim", result: Result.succeed(undefined) }])
      expect(reportsSince(connected)).toEqual([{ channel: "getter:a@sim", value: on }])
      expect(yield* devices.getterValue(id("getter:a@sim"))).toEqual(Option.some(on))
    }))

  it.effect("keeps the last value of a setter without drives, logs it, and reports nothing", () => {
    const logged: Array<string> = []
    const capture = Logger.make(({ message }) => {
      logged.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
    return Effect.gen(function*() {
      const { devices, markReports, reportsSince } = yield* simulate(home([lamp("a")]))
      const connected = markReports()
      const { reply } = collectReplies<void>()
      const said = (value: string): Value => ({ _tag: "String", value })
      yield* devices.adapter.send([{ channel: id("setter:a-log@sim"), value: said("one") }], noUser, reply)
      yield* devices.adapter.send([{ channel: id("setter:a-log@sim"), value: said("two") }], noUser, reply)
      expect(yield* devices.lastSent(id("setter:a-log@sim"))).toEqual(Option.some(said("two")))
      expect(reportsSince(connected)).toEqual([])
      expect(logged).toEqual(['setter:a-log@sim received {"String":"one"}', 'setter:a-log@sim received {"String":"two"}'])
    }).pipe(Effect.provide(Logger.layer([capture])))
  })

  it.effect("takes the values of a cycle in turn, one every every_ms, from the first", () =>
    Effect.gen(function*() {
      const { devices, reports } = yield* simulate(home([door("d", { every_ms: 1000, values: [{ OpenClosed: "Closed" }, { OpenClosed: "Open" }] })]))
      const getter = id("getter:d@sim")
      expect(yield* devices.getterValue(getter)).toEqual(Option.some(closed))
      // The first value is the getter's initial value: reported as it connects.
      expect(reports).toEqual([{ channel: "getter:d@sim", value: closed }])
      yield* TestClock.adjust(999)
      expect(reports).toEqual([{ channel: "getter:d@sim", value: closed }])
      yield* TestClock.adjust(1)
      expect(yield* devices.getterValue(getter)).toEqual(Option.some(open))
      yield* TestClock.adjust(2000)
      expect(reports.map((r) => r.value)).toEqual([closed, open, closed, open])
    }))

  it.effect("starts a cycle from the getter's value when it has one", () =>
    Effect.gen(function*() {
      const { devices, reports } = yield* simulate(home([
        door("d", { every_ms: 100, values: [{ OpenClosed: "Closed" }, { OpenClosed: "Open" }] }, { value: { OpenClosed: "Open" } })
      ]))
      expect(yield* devices.getterValue(id("getter:d@sim"))).toEqual(Option.some(open))
      expect(reports).toEqual([{ channel: "getter:d@sim", value: open }])
      yield* TestClock.adjust(300)
      expect(reports.map((r) => r.value)).toEqual([open, closed, open, closed])
    }))

  it.effect("refuses an Always watch on a thresholds-only getter, with a message", () =>
    Effect.gen(function*() {
      const { devices } = yield* simulate(home([
        { id: "service:t@sim", getters: [{ id: "getter:t@sim", kind: "OnOff", watch: "thresholds-only" }, { id: "getter:u@sim", kind: "OnOff" }] }
      ]))
      const refusal = devices.adapter.refusesWatch(id("getter:t@sim"), { _tag: "Always" })
      expect(Option.getOrElse(refusal, () => "")).toMatch(/getter:t@sim.*threshold/)
      const range = { _tag: "InRange", range: { _tag: "Eq", value: on } } as const
      expect(devices.adapter.refusesWatch(id("getter:t@sim"), range)).toEqual(Option.none())
      expect(devices.adapter.refusesWatch(id("getter:u@sim"), { _tag: "Always" })).toEqual(Option.none())
    }))

  it.effect("answers an error for a channel it does not have", () =>
    Effect.gen(function*() {
      const { devices } = yield* simulate(home([lamp("a")]))
      const { replies, reply } = collectReplies<Option.Option<Value>>()
      yield* devices.adapter.fetch(fetchIds(["getter:gone@sim"]), noUser, reply)
      expect(replies.map((r) => Result.isFailure(r.result))).toEqual([true])
    }))
})

describe("simulated devices, when the home changes", () => {
  it.effect("removes devices that left, connects new ones and updates changed ones", () =>
    Effect.gen(function*() {
      const { devices, upserts, removals } = yield* simulate(home([lamp("a"), lamp("b"), lamp("c")]))
      upserts.length = 0
      yield* devices.apply(home([lamp("a"), { ...lamp("b"), tags: ["new"] }, lamp("d")]))
      expect(removals).toEqual(["service:c@sim"])
      expect(upserts.map((u) => u.id)).toEqual(["service:b@sim", "service:d@sim"])
      expect(upserts[0]?.tags).toEqual(["new"])
      expect((yield* devices.home).services.map((s) => s.id)).toEqual(["service:a@sim", "service:b@sim", "service:d@sim"])
      const { replies, reply } = collectReplies<Option.Option<Value>>()
      yield* devices.adapter.fetch(fetchIds(["getter:c@sim", "getter:d@sim"]), noUser, reply)
      expect(replies.map((r) => Result.isSuccess(r.result))).toEqual([false, true])
    }))

  it.effect("leaves the values and cycles of unchanged devices alone", () =>
    Effect.gen(function*() {
      const cycling = door("d", { every_ms: 1000, values: [{ OpenClosed: "Closed" }, { OpenClosed: "Open" }] })
      const { devices, upserts, markReports, reportsSince } = yield* simulate(home([lamp("a"), cycling]))
      yield* devices.adapter.send([{ channel: id("setter:a@sim"), value: on }], noUser, collectReplies<void>().reply)
      yield* TestClock.adjust(600)
      upserts.length = 0
      const beforeReload = markReports()
      yield* devices.apply(home([lamp("a"), cycling, lamp("b")]))
      expect(upserts.map((u) => u.id)).toEqual(["service:b@sim"])
      expect(yield* devices.getterValue(id("getter:a@sim"))).toEqual(Option.some(on))
      // Only the new lamp reports, its initial value: the unchanged lamp and door report nothing.
      expect(reportsSince(beforeReload)).toEqual([{ channel: "getter:b@sim", value: off }])
      // A restarted cycle would wait a whole period again, until 1600.
      yield* TestClock.adjust(400)
      expect(reportsSince(beforeReload)).toEqual([{ channel: "getter:b@sim", value: off }, { channel: "getter:d@sim", value: open }])
    }))

  it.effect("keeps a getter's value when only the device's latency or the tags change", () =>
    Effect.gen(function*() {
      const { devices, reports } = yield* simulate(home([lamp("a"), lamp("b")]))
      const { reply } = collectReplies<void>()
      yield* devices.adapter.send([{ channel: id("setter:a@sim"), value: on }, { channel: id("setter:b@sim"), value: on }], noUser, reply)
      reports.length = 0
      yield* devices.apply(home([
        lamp("a", { latency_ms: 5, tags: ["x"] }),
        lamp("b", { getters: [{ id: "getter:b@sim", kind: "OnOff", value: { OnOff: "Off" }, tags: ["edited"] }] })
      ]))
      expect(yield* devices.getterValue(id("getter:a@sim"))).toEqual(Option.some(on))
      expect(yield* devices.getterValue(id("getter:b@sim"))).toEqual(Option.some(on))
      expect(reports).toEqual([])
    }))

  it.effect("gives a getter whose value is edited in the file that value, and reports it", () =>
    Effect.gen(function*() {
      const { devices, markReports, reportsSince } = yield* simulate(home([lamp("a"), lamp("b")]))
      const beforeReload = markReports()
      yield* devices.apply(home([lamp("a"), lamp("b", { getters: [{ id: "getter:b@sim", kind: "OnOff", value: { OnOff: "On" } }] })]))
      expect(yield* devices.getterValue(id("getter:b@sim"))).toEqual(Option.some(on))
      expect(reportsSince(beforeReload)).toEqual([{ channel: "getter:b@sim", value: on }])
    }))

  it.effect("stops the cycle of a getter that leaves", () =>
    Effect.gen(function*() {
      const { devices, reports, markReports, reportsSince } = yield* simulate(home([door("d", { every_ms: 100, values: [{ OpenClosed: "Open" }] })]))
      expect(reports).toEqual([{ channel: "getter:d@sim", value: open }])
      const beforeReload = markReports()
      yield* devices.apply(home([]))
      yield* TestClock.adjust(1000)
      expect(reportsSince(beforeReload)).toEqual([])
    }))

  it.effect("frees a channel on its old device before connecting it on its new one", () =>
    Effect.gen(function*() {
      const { devices, upserts } = yield* simulate(home([lamp("a"), { id: "service:b@sim" }]))
      upserts.length = 0
      const moved = { id: "service:b@sim", getters: [{ id: "getter:a@sim", kind: "OnOff", value: { OnOff: "Off" } }] }
      yield* devices.apply(home([{ ...lamp("a"), getters: [], setters: [{ id: "setter:a-log@sim", kind: "Log" }] }, moved]))
      expect(upserts.map((u) => [u.id, u.getters.map((g) => g.id)])).toEqual([
        ["service:a@sim", []],
        ["service:a@sim", []],
        ["service:b@sim", ["getter:a@sim"]]
      ])
    }))

  it.effect("leaves out a device the gateway refuses, and connects it once it is accepted", () =>
    Effect.gen(function*() {
      const refused = new Set(["service:b@sim"])
      const { devices, upserts } = yield* simulate(home([lamp("a"), lamp("b")]), refused)
      expect((yield* devices.home).services.map((s) => s.id)).toEqual(["service:a@sim"])
      refused.clear()
      yield* devices.apply(home([lamp("a"), lamp("b")]))
      expect(upserts.map((u) => u.id)).toEqual(["service:a@sim", "service:b@sim"])
    }))
})
