import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
import type { TagOperation } from "../domain/Request.ts"
import type { ChannelSelector, ServiceSelector } from "../domain/Selector.ts"
import type { StoreError } from "../domain/StoreError.ts"
import { Registry } from "./Registry.ts"
import { TagStore } from "./TagStore.ts"

export interface TagsShape {
  /** Tags or untags the services matching now; answers how many matched, changed or not. */
  readonly tagServices: (
    operation: TagOperation,
    selectors: ReadonlyArray<ServiceSelector>,
    tags: ReadonlyArray<Tag>
  ) => Effect.Effect<number, StoreError>
  /** Tags or untags the channels (of either mechanism) matching now; answers how many matched. */
  readonly tagChannels: (
    operation: TagOperation,
    selectors: ReadonlyArray<ChannelSelector>,
    tags: ReadonlyArray<Tag>
  ) => Effect.Effect<number, StoreError>
}

/**
 * Client tags on services and channels. Tagging is not live (docs/reference.md §6.5): it touches what matches at
 * the time of the call. The store is written first, all or nothing, so a failed write leaves the
 * in-memory home untouched.
 */
export class Tags extends Context.Service<Tags, TagsShape>()("app/Tags") {
  static readonly layer = Layer.effect(
    Tags,
    Effect.gen(function*() {
      const registry = yield* Registry
      const store = yield* TagStore
      const { index } = registry

      const tagServices = Effect.fn("Tags.tagServices")(function*(
        operation: TagOperation,
        selectors: ReadonlyArray<ServiceSelector>,
        tags: ReadonlyArray<Tag>
      ) {
        const ids: Array<ServiceId> = index.selectServices(selectors).map((s) => s.id)
        yield* (operation === "add" ? store.add : store.remove)("service", ids, tags)
        yield* registry.retagServices(ids, tags, operation === "add")
        return ids.length
      })

      const tagChannels = Effect.fn("Tags.tagChannels")(function*(
        operation: TagOperation,
        selectors: ReadonlyArray<ChannelSelector>,
        tags: ReadonlyArray<Tag>
      ) {
        const ids: Array<ChannelId> = index.selectChannels(selectors).map((c) => c.id)
        yield* (operation === "add" ? store.add : store.remove)("channel", ids, tags)
        yield* registry.retagChannels(ids, tags, operation === "add")
        return ids.length
      })

      return Tags.of({ tagServices, tagChannels })
    })
  )
}
