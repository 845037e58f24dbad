import { describe, expect, it } from "@effect/vitest"
import { Effect, PubSub, Stream } from "effect"
import { exactly, serviceSelector, Tag } from "../../src/domain/index.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import type { TagFeedItem, TagStoreShape } from "../../src/gateway/TagStore.ts"
import { eventually } from "../support/eventually.ts"
import { gatewayOn } from "../support/gatewayTestLayer.ts"
import { inMemoryTagStore, makeInMemoryTagStore } from "../support/InMemoryStores.ts"
import { lightDescription, makeRecordingAdapter } from "../support/RecordingAdapter.ts"

/**
 * The tags another gateway on the same store changes reach this one's index (and so its watchers)
 * through the store's change feed; a word to reload makes it hold what the store keeps. The store here
 * is in memory, and "another gateway" writes to it and tells the feed, as PostgreSQL's would.
 */

/** A store shared with another gateway, and that gateway's voice on the feed. */
const sharedStore = () => {
  const kept = makeInMemoryTagStore()
  const told = Effect.runSync(PubSub.unbounded<TagFeedItem>())
  const store: TagStoreShape = { ...kept, changes: Effect.map(PubSub.subscribe(told), Stream.fromSubscription) }
  const elsewhere = (item: TagFeedItem) => PubSub.publish(told, item)
  return { kept, store, elsewhere }
}

const connect = (...locals: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const host = yield* (yield* Registry).register(makeRecordingAdapter("a").adapter)
    for (const local of locals) yield* host.upsertService(lightDescription(local, "a"))
  })

/** The ids of the services carrying `tag`, sorted. */
const carrying = (tag: string) =>
  Effect.gen(function*() {
    const services = yield* (yield* Registry).services([serviceSelector({ tags: [Tag.make(tag)] })])
    return services.map((service): string => service.id).sort()
  })

/** The tags of the light `local`, sorted. */
const tagsOf = (local: string) =>
  Effect.gen(function*() {
    const [service] = yield* (yield* Registry).services([serviceSelector({ id: exactly(lightDescription(local, "a").id) })])
    return [...(service?.tags ?? [])].map((tag): string => tag).sort()
  })

describe("tags changed by another gateway on the same store", () => {
  it.live("reach the index as this gateway's own do, and what is not a valid id or tag is left out", () => {
    const { kept, store, elsewhere } = sharedStore()
    return Effect.gen(function*() {
      yield* connect("one", "two")
      yield* kept.add("service", ["service:one@a", "not an id"], ["porch", "not a tag!"])
      yield* elsewhere({ ownerKind: "service", ids: ["service:one@a", "not an id"], tags: ["porch", "not a tag!"], added: true })
      expect(yield* eventually(carrying("porch"), (ids) => ids.length > 0)).toEqual(["service:one@a"])
      yield* kept.remove("service", ["service:one@a"], ["porch"])
      yield* elsewhere({ ownerKind: "service", ids: ["service:one@a"], tags: ["porch"], added: false })
      expect(yield* eventually(carrying("porch"), (ids) => ids.length === 0)).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(gatewayOn(inMemoryTagStore(store))))
  })

  it.live("on a word to reload, holds what the store keeps: tags added meanwhile come, tags removed go", () => {
    const { kept, store, elsewhere } = sharedStore()
    return Effect.gen(function*() {
      yield* connect("one", "two")
      yield* kept.add("service", ["service:one@a"], ["hall", "upstairs"])
      yield* elsewhere({ ownerKind: "service", ids: ["service:one@a"], tags: ["hall", "upstairs"], added: true })
      expect(yield* eventually(tagsOf("one"), (tags) => tags.length === 2)).toEqual(["hall", "upstairs"])
      // Missed by this gateway (its feed was down): only the store knows.
      yield* kept.remove("service", ["service:one@a"], ["upstairs"])
      yield* kept.add("service", ["service:two@a"], ["garden"])
      yield* elsewhere({ reload: true })
      expect(yield* eventually(tagsOf("two"), (tags) => tags.length > 0)).toEqual(["garden"])
      expect(yield* tagsOf("one")).toEqual(["hall"])
    }).pipe(Effect.scoped, Effect.provide(gatewayOn(inMemoryTagStore(store))))
  })
})
