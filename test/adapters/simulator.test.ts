import * as NodeServices from "@effect/platform-node/NodeServices"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Fiber, FileSystem, Layer, Logger, Metric, Option, Result, Stream } from "effect"
import { HomeSource, Simulator } from "../../src/adapters/simulator/Simulator.ts"
import { anyService, ChannelId, channelSelector, exactly, ServiceId, serviceSelector, Tag } from "../../src/domain/index.ts"
import type { Value } from "../../src/domain/index.ts"
import { Dispatch } from "../../src/gateway/Dispatch.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { Tags } from "../../src/gateway/Tags.ts"
import { gatewayTestLayer } from "../support/gatewayTestLayer.ts"
import { lightDescription, makeRecordingAdapter } from "../support/RecordingAdapter.ts"
import { eventually } from "../support/eventually.ts"
import { ignoreReplies } from "./recordingHost.ts"

const on: Value = { _tag: "OnOff", state: "On" }
const noUser = { user: Option.none() }

const lamp = (local: string, extra: object = {}) => ({
  id: `service:${local}@sim`,
  tags: ["light"],
  properties: { name: `Lamp ${local}` },
  getters: [{ id: `getter:${local}@sim`, kind: "OnOff", value: { OnOff: "Off" } }],
  setters: [{ id: `setter:${local}@sim`, kind: "OnOff", drives: `getter:${local}@sim` }],
  ...extra
})
const homeText = (services: ReadonlyArray<object>) => JSON.stringify({ services }, null, 2)

const serviceIds = Effect.gen(function*() {
  const registry = yield* Registry
  return (yield* registry.services([anyService])).map((s) => s.id).filter((id) => id.endsWith("@sim"))
})

/** A home file in a fresh folder, and ways to change it as editors do. */
const homeFile = (services: ReadonlyArray<object>) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const dir = yield* fs.makeTempDirectoryScoped({ prefix: "sim-home-" })
    const path = `${dir}/home.json`
    yield* fs.writeFileString(path, homeText(services))
    return {
      path,
      rewrite: (next: ReadonlyArray<object>) => fs.writeFileString(path, homeText(next)),
      replace: (next: ReadonlyArray<object>) =>
        Effect.gen(function*() {
          yield* fs.writeFileString(`${dir}/.home.json.swp`, homeText(next))
          yield* fs.rename(`${dir}/.home.json.swp`, path)
        }),
      writeRaw: (text: string) => fs.writeFileString(path, text)
    }
  })

const gateway = (config = {}) => Layer.mergeAll(gatewayTestLayer(config), NodeServices.layer)

describe("simulator", () => {
  it.live("connects the devices of a home file through the registry, with their tags and properties", () =>
    Effect.gen(function*() {
      const file = yield* homeFile([lamp("a", { tags: ["hall", "light"] }), lamp("b")])
      const simulator = yield* Simulator.start(HomeSource.file(file.path))
      const registry = yield* Registry
      const [a] = yield* registry.services([serviceSelector({ id: exactly(ServiceId.make("service:a@sim")) })])
      expect(a).toMatchObject({ adapter: "simulator@gateway.local", tags: ["hall", "light"], properties: { name: "Lamp a" } })
      expect(a?.getters.map((g) => g.id)).toEqual(["getter:a@sim"])
      expect(yield* serviceIds).toEqual(["service:a@sim", "service:b@sim"])
      expect(simulator.source).toEqual(HomeSource.file(file.path))
    }).pipe(Effect.provide(gateway())))

  it.live("runs the built-in demo home when no --home is given", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator
      expect(simulator.source).toEqual(HomeSource.demo)
      const ids = yield* serviceIds
      expect(ids.length).toBeGreaterThanOrEqual(10)
      expect(ids).toContain("service:front-door-lock@sim")
    }).pipe(Effect.provide(Simulator.layer({ home: Option.none() }).pipe(Layer.provideMerge(gateway())))))

  it.live("runs the home named by --home", () =>
    Effect.gen(function*() {
      const file = yield* homeFile([lamp("a")])
      const simulator = yield* Layer.build(Simulator.layer({ home: Option.some(file.path) })).pipe(
        Effect.provide(gatewayTestLayer()),
        Effect.map((context) => Context.get(context, Simulator))
      )
      expect(simulator.source).toEqual(HomeSource.file(file.path))
      expect((yield* simulator.home).services.map((s) => s.id)).toEqual(["service:a@sim"])
    }).pipe(Effect.provide(NodeServices.layer)))

  it.live("fails to start on a broken file, naming the place in it", () =>
    Effect.gen(function*() {
      const file = yield* homeFile([{ id: "service:a@sim", getters: [{ id: "g", kind: "Toaster" }] }])
      const error = yield* Effect.flip(Simulator.start(HomeSource.file(file.path)))
      expect(error.message).toMatch(/home\.json: services\[0\]\.getters\[0\]\.kind: unknown kind "Toaster"/)
    }).pipe(Effect.provide(gateway())))

  it.live("lets watchers see the value a setter drives", () =>
    Effect.gen(function*() {
      const file = yield* homeFile([lamp("a")])
      yield* Simulator.start(HomeSource.file(file.path))
      const registry = yield* Registry
      const dispatch = yield* Dispatch
      const seen = yield* registry.changes.pipe(
        Stream.filter((c) => c._tag === "ValueReported"),
        Stream.take(1),
        Stream.runCollect,
        Effect.forkScoped
      )
      yield* Effect.sleep("10 millis")
      const sent = yield* dispatch.send([{ selectors: [channelSelector({ id: exactly(ChannelId.make("setter:a@sim")) })], value: on }], noUser)
      expect(sent.map((r) => Result.isSuccess(r.result))).toEqual([true])
      const [change] = yield* Fiber.join(seen)
      expect(change).toMatchObject({ _tag: "ValueReported", channel: "getter:a@sim", value: on })
    }).pipe(Effect.provide(gateway())))

  it.live("answers a write and a read of devices without latency in the caller's fiber, and a slow one's in a fiber of its own", () =>
    Effect.gen(function*() {
      const file = yield* homeFile([lamp("a"), lamp("slow", { latency_ms: 5 })])
      yield* Simulator.start(HomeSource.file(file.path))
      const dispatch = yield* Dispatch
      // The runtime tells its FiberRuntimeMetrics service of every fiber it starts.
      let fibers = 0
      const counting: Metric.FiberRuntimeMetricsService = { recordFiberStart: () => void fibers++, recordFiberEnd: () => {} }
      const fibersOf = <A>(call: Effect.Effect<A>) =>
        Effect.gen(function*() {
          fibers = 0
          const answer = yield* call.pipe(Effect.provideService(Metric.FiberRuntimeMetrics, counting))
          return { answer, fibers }
        })
      const select = (id: string) => [channelSelector({ id: exactly(ChannelId.make(id)) })]
      const sent = yield* fibersOf(dispatch.send([{ selectors: select("setter:a@sim"), value: on }], noUser))
      const read = yield* fibersOf(dispatch.fetch(select("getter:a@sim"), noUser))
      expect(sent).toEqual({ answer: [{ key: "setter:a@sim", result: Result.void }], fibers: 0 })
      // The setter drove its getter before the write was answered.
      expect(read).toEqual({ answer: [{ key: "getter:a@sim", result: Result.succeed(Option.some(on)) }], fibers: 0 })
      const slow = yield* fibersOf(dispatch.send([{ selectors: select("setter:slow@sim"), value: on }], noUser))
      expect(slow.answer).toEqual([{ key: "setter:slow@sim", result: Result.void }])
      expect(slow.fibers).toBeGreaterThan(0)
    }).pipe(Effect.provide(gateway())))

  it.live("turns a device that never answers into a per-channel error at the gateway's timeout", () =>
    Effect.gen(function*() {
      const file = yield* homeFile([lamp("a", { fail: "timeout" }), lamp("b")])
      yield* Simulator.start(HomeSource.file(file.path))
      const dispatch = yield* Dispatch
      const results = yield* dispatch.fetch([channelSelector({ mechanism: exactly("getter") })], noUser)
      const byKey = new Map(results.map((r) => [r.key, r.result]))
      expect(byKey.get(ChannelId.make("getter:a@sim"))).toEqual(Result.fail({ _tag: "DeviceFailure", message: expect.stringMatching(/200 ms/) }))
      expect(byKey.get(ChannelId.make("getter:b@sim"))).toEqual(Result.succeed(Option.some({ _tag: "OnOff", state: "Off" })))
    }).pipe(Effect.provide(gateway({ deviceTimeoutMs: 200 }))))

  it.live("disconnects its devices when its scope closes", () =>
    Effect.gen(function*() {
      const file = yield* homeFile([lamp("a")])
      yield* Simulator.start(HomeSource.file(file.path)).pipe(Effect.scoped)
      expect(yield* serviceIds).toEqual([])
    }).pipe(Effect.provide(gateway())))
})

describe("simulator, when its home file changes", () => {
  for (const how of ["rewrite", "replace"] as const) {
    const saved = how === "rewrite" ? "rewritten in place" : "replaced by a rename"
    it.live(`removes, connects and updates devices of a file ${saved}`, () =>
      Effect.gen(function*() {
        const file = yield* homeFile([lamp("a"), lamp("b"), lamp("c")])
        const simulator = yield* Simulator.start(HomeSource.file(file.path))
        const registry = yield* Registry
        yield* simulator.adapter.send([{ channel: ChannelId.make("setter:a@sim"), value: on }], noUser, ignoreReplies())

        yield* file[how]([lamp("a"), lamp("b", { tags: ["light", "moved"] }), lamp("d")])
        const ids = yield* eventually(serviceIds, (ids) => ids.includes(ServiceId.make("service:d@sim")))
        expect(ids).toEqual(["service:a@sim", "service:b@sim", "service:d@sim"])
        const [b] = yield* registry.services([serviceSelector({ tags: [Tag.make("moved")] })])
        expect(b?.id).toBe("service:b@sim")
        // The untouched lamp keeps the value it was given before the reload.
        expect(yield* simulator.getterValue(ChannelId.make("getter:a@sim"))).toEqual(Option.some(on))
        // A second save of the same kind: a watcher that followed the first file would miss it after a rename.
        yield* file[how]([lamp("a"), lamp("d", { tags: ["light", "second"] })])
        const again = yield* eventually(serviceIds, (ids) => !ids.includes(ServiceId.make("service:b@sim")))
        expect(again).toEqual(["service:a@sim", "service:d@sim"])
        const [d] = yield* registry.services([serviceSelector({ tags: [Tag.make("second")] })])
        expect(d?.id).toBe("service:d@sim")
        expect((yield* simulator.reloads).applied).toBeGreaterThanOrEqual(2)
      }).pipe(Effect.provide(gateway())))
  }

  it.live("keeps the previous home when the file is broken, says where, and takes the next good one", () => {
    const logged: Array<string> = []
    const capture = Logger.make(({ logLevel, message }) => {
      logged.push(`${logLevel}: ${Array.isArray(message) ? message.join(" ") : String(message)}`)
    })
    return Effect.gen(function*() {
      const file = yield* homeFile([lamp("a"), lamp("b")])
      const simulator = yield* Simulator.start(HomeSource.file(file.path))

      yield* file.rewrite([lamp("a"), { id: "service:c@sim", getters: [{ id: "g", kind: "Toaster" }] }])
      const status = yield* eventually(simulator.reloads, (s) => Option.isSome(s.error))
      const message = Option.map(status.error, (e) => e.message)
      expect(Option.getOrElse(message, () => "")).toMatch(/home\.json: services\[1\]\.getters\[0\]\.kind: unknown kind "Toaster"/)
      expect(logged.some((line) => line.startsWith("Error") && line.includes("services[1].getters[0].kind"))).toBe(true)
      expect(yield* serviceIds).toEqual(["service:a@sim", "service:b@sim"])

      yield* file.writeRaw("{ \"services\": [")
      yield* eventually(simulator.reloads, (s) => Option.exists(s.error, (e) => e.message.includes("not valid JSON")))
      expect(yield* serviceIds).toEqual(["service:a@sim", "service:b@sim"])

      yield* file.rewrite([lamp("a")])
      const after = yield* eventually(simulator.reloads, (s) => Option.isNone(s.error))
      expect(after.error).toEqual(Option.none())
      expect(yield* serviceIds).toEqual(["service:a@sim"])
    }).pipe(Effect.provide(Layer.mergeAll(gateway(), Logger.layer([capture]))))
  })

  it.live("takes away a tag the file no longer gives a device, unless a client put it there too", () =>
    Effect.gen(function*() {
      const file = yield* homeFile([lamp("a", { tags: ["light", "hall", "old"] })])
      yield* Simulator.start(HomeSource.file(file.path))
      const registry = yield* Registry
      const tags = yield* Tags
      yield* tags.tagServices("add", [serviceSelector({ id: exactly(ServiceId.make("service:a@sim")) })], [Tag.make("hall")])
      const tagsOfA = registry.services([serviceSelector({ id: exactly(ServiceId.make("service:a@sim")) })]).pipe(
        Effect.map(([a]) => a?.tags)
      )
      yield* file.rewrite([lamp("a", { tags: ["light", "new"] })])
      expect(yield* eventually(tagsOfA, (t) => t?.includes(Tag.make("new")) === true)).toEqual(["hall", "light", "new"])
    }).pipe(Effect.provide(gateway())))

  it.live("refuses, whole, a file naming a channel another adapter's device holds, and keeps the running devices", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const other = makeRecordingAdapter("other")
      const host = yield* registry.register(other.adapter)
      yield* host.upsertService(lightDescription("lamp", "other"))
      const file = yield* homeFile([lamp("a"), lamp("b")])
      const simulator = yield* Simulator.start(HomeSource.file(file.path))
      yield* simulator.adapter.send([{ channel: ChannelId.make("setter:a@sim"), value: on }], noUser, ignoreReplies())

      const taken = lamp("a", { getters: [{ id: "getter:a@sim", kind: "OnOff" }, { id: "getter:lamp@other", kind: "OnOff" }] })
      yield* file.rewrite([taken, lamp("c")])
      const status = yield* eventually(simulator.reloads, (s) => Option.isSome(s.error))
      expect(Option.map(status.error, (e) => e.message)).toEqual(Option.some(expect.stringMatching(
        /home\.json: services\[0\]\.getters\[1\]\.id: getter:lamp@other already belongs to service:lamp@other/
      )))
      expect(yield* serviceIds).toEqual(["service:a@sim", "service:b@sim"])
      expect(yield* simulator.getterValue(ChannelId.make("getter:a@sim"))).toEqual(Option.some(on))
    }).pipe(Effect.provide(gateway())))

  it.live("refuses a change of adapter id while running", () =>
    Effect.gen(function*() {
      const file = yield* homeFile([lamp("a")])
      const simulator = yield* Simulator.start(HomeSource.file(file.path))
      yield* file.writeRaw(JSON.stringify({ adapter: "other@example.org", services: [] }))
      const status = yield* eventually(simulator.reloads, (s) => Option.isSome(s.error))
      expect(Option.map(status.error, (e) => e.message)).toEqual(Option.some(expect.stringMatching(/adapter: the adapter id cannot change/)))
      expect(yield* serviceIds).toEqual(["service:a@sim"])
    }).pipe(Effect.provide(gateway())))
})
