import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { anyChannel, anyService, channelSelector, exactly, ServiceId, serviceSelector, Tag } from "../../src/domain/index.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { Tags } from "../../src/gateway/Tags.ts"
import { TagStore } from "../../src/gateway/TagStore.ts"
import { gatewayOn, sqliteTagStore } from "../support/gatewayTestLayer.ts"
import { inMemoryTagStore, makeInMemoryTagStore } from "../support/InMemoryStores.ts"
import { lightDescription, makeRecordingAdapter } from "../support/RecordingAdapter.ts"

const kitchen = Tag.make("kitchen")
const red = Tag.make("red")
const one = ServiceId.make("service:one@a")

/** Connects lights `locals` through adapter `a`, for the scope of the test. */
const connect = (...locals: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const registry = yield* Registry
    const host = yield* registry.register(makeRecordingAdapter("a").adapter)
    for (const local of locals) yield* host.upsertService(lightDescription(local, "a"))
    return host
  })

const serviceTags = (id: ServiceId) =>
  Effect.gen(function*() {
    const [service] = yield* (yield* Registry).services([serviceSelector({ id: exactly(id) })])
    return service?.tags
  })

/**
 * The core on a store: `fresh` makes a new one, whose data outlives the layers built on it (a restart).
 */
const tagsOn = <E>(name: string, fresh: () => Layer.Layer<TagStore, E>) =>
  describe(name, () => {
    const gatewayTestLayer = () => gatewayOn(fresh())
    it.live("count every thing that matched, changed or not, each once", () =>
      Effect.gen(function*() {
        yield* connect("one", "two", "three")
        const tags = yield* Tags
        expect(yield* tags.tagServices("add", [serviceSelector({ id: exactly(one) })], [kitchen])).toBe(1)
        // `one` already carries the tag and is matched by both selectors: it still counts, once.
        expect(yield* tags.tagServices("add", [anyService, serviceSelector({ id: exactly(one) })], [kitchen])).toBe(3)
        expect(yield* tags.tagServices("remove", [serviceSelector({ tags: [red] })], [kitchen])).toBe(0)
        expect(yield* tags.tagChannels("add", [anyChannel], [red])).toBe(6)
      }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

    it.live("count 0 for ids that name nothing connected", () =>
      Effect.gen(function*() {
        yield* connect("one")
        const tags = yield* Tags
        expect(yield* tags.tagServices("add", [serviceSelector({ id: exactly(ServiceId.make("service:nope@a")) })], [red])).toBe(0)
        expect(yield* tags.tagChannels("add", [channelSelector({ tags: [Tag.make("absent")] })], [red])).toBe(0)
      }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

    it.live("are not live: a device connected after the call is not tagged", () =>
      Effect.gen(function*() {
        const host = yield* connect("one")
        const tags = yield* Tags
        yield* tags.tagServices("add", [anyService], [kitchen])
        yield* host.upsertService(lightDescription("two", "a"))
        expect(yield* serviceTags(one)).toEqual(["kitchen"])
        expect(yield* serviceTags(ServiceId.make("service:two@a"))).toEqual([])
      }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

    it.live("come back when a device disconnects and reconnects with the same id", () =>
      Effect.gen(function*() {
        const host = yield* connect("one")
        yield* (yield* Tags).tagServices("add", [anyService], [kitchen, red])
        yield* host.removeService(one)
        expect(yield* serviceTags(one)).toBeUndefined()
        yield* host.upsertService(lightDescription("one", "a"))
        expect(yield* serviceTags(one)).toEqual(["kitchen", "red"])
      }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))

    it.live("survive a restart of the gateway on the same database file", () =>
      Effect.gen(function*() {
        const layer = gatewayTestLayer()
        // Two separate builds of the layer: the database is closed and reopened in between.
        yield* Effect.gen(function*() {
          yield* connect("one")
          yield* (yield* Tags).tagServices("add", [anyService], [kitchen])
          yield* (yield* Tags).tagChannels("add", [anyChannel], [red])
        }).pipe(Effect.scoped, Effect.provide(Layer.fresh(layer)))
        yield* Effect.gen(function*() {
          yield* connect("one")
          expect(yield* serviceTags(one)).toEqual(["kitchen"])
          const channels = yield* (yield* Registry).channels([channelSelector({ tags: [red] })])
          expect(channels.map((c) => c.id)).toEqual(["getter:one@a", "setter:one@a"])
        }).pipe(Effect.scoped, Effect.provide(Layer.fresh(layer)))
      }))

    it.live("leave out, at start, stored ids and tags that are no longer valid", () =>
      Effect.gen(function*() {
        const layer = gatewayTestLayer()
        // Written straight to the store, as an older gateway or a hand edit might have left them.
        yield* Effect.gen(function*() {
          const repository = yield* TagStore
          yield* repository.add("service", [one], ["kitchen", "bad\u0007tag"])
          yield* repository.add("service", ["x".repeat(300)], ["kitchen"])
        }).pipe(Effect.scoped, Effect.provide(Layer.fresh(layer)))
        yield* Effect.gen(function*() {
          yield* connect("one")
          expect(yield* serviceTags(one)).toEqual(["kitchen"])
          const kitchenServices = yield* (yield* Registry).services([serviceSelector({ tags: [kitchen] })])
          expect(kitchenServices.map((s) => s.id)).toEqual([one])
        }).pipe(Effect.scoped, Effect.provide(Layer.fresh(layer)))
      }))

    it.live("merge a device's own tags with the stored ones, and removal takes them off", () =>
      Effect.gen(function*() {
        const registry = yield* Registry
        const host = yield* registry.register(makeRecordingAdapter("a").adapter)
        yield* host.upsertService({ ...lightDescription("one", "a"), tags: [red] })
        yield* (yield* Tags).tagServices("add", [anyService], [kitchen])
        expect(yield* serviceTags(one)).toEqual(["kitchen", "red"])
        yield* (yield* Tags).tagServices("remove", [anyService], [red])
        expect(yield* serviceTags(one)).toEqual(["kitchen"])
      }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))
  })

tagsOn("tags", () => sqliteTagStore())
// A store kept by the test: the core needs no database.
tagsOn("tags, on a store in memory", () => inMemoryTagStore(makeInMemoryTagStore()))
