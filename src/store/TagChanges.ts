import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import * as Stream from "effect/Stream"
import type { OwnerKind, TagChange, TagStoreShape } from "../gateway/TagStore.ts"

/** A TagStore's change feed: what `add` and `remove` tell once they have kept a change, and its subscriptions. */
export interface TagChanges {
  /** Tells the subscribers, when `changed` pairs were kept (none: nothing happened, nothing to tell). */
  readonly kept: (ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>, added: boolean) => (changed: number) => Effect.Effect<number>
  readonly changes: TagStoreShape["changes"]
}

export const makeTagChanges: Effect.Effect<TagChanges> = Effect.map(
  // Unbounded: a store never waits for a slow subscriber; each keeps what it has not read yet.
  PubSub.unbounded<TagChange>(),
  (hub) => ({
    kept: (ownerKind, ids, tags, added) => (changed) =>
      changed === 0 ? Effect.succeed(0) : Effect.as(PubSub.publish(hub, { ownerKind, ids, tags, added }), changed),
    changes: Effect.map(PubSub.subscribe(hub), Stream.fromSubscription)
  })
)
