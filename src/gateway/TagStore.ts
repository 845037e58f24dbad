import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { StoreError } from "../domain/StoreError.ts"

/** What a tag is put on. Ids of the two kinds live in separate namespaces. */
export type OwnerKind = "service" | "channel"

/** Every kept tag: per owner kind, per id, its tags. Ids without tags are absent. */
export type TagsByOwner = { readonly [K in OwnerKind]: ReadonlyMap<string, ReadonlySet<string>> }

/** Tags put on ids or taken off them, all of one owner kind: one `add` or `remove` that changed something. */
export interface TagChange {
  readonly ownerKind: OwnerKind
  readonly ids: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
  readonly added: boolean
}

/**
 * The store's tags may have changed in ways its feed cannot tell one by one (it lost its connection to
 * the others for a while, or a change was too large to tell): load them again.
 */
export interface TagsToReload {
  readonly reload: true
}

/** What a store's change feed gives: a change, or word to reload. */
export type TagFeedItem = TagChange | TagsToReload

/**
 * Ids and tags are plain strings here: what the store gives back is checked again when it is loaded
 * (a row an older gateway or a hand edit left may no longer be valid).
 */
export interface TagStoreShape {
  /** Puts every tag on every id, all or nothing. Tags already there stay; answers how many pairs are new. */
  readonly add: (ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>) => Effect.Effect<number, StoreError>
  /** Takes every tag off every id, all or nothing. Absent pairs are fine; answers how many were removed. */
  readonly remove: (ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>) => Effect.Effect<number, StoreError>
  /** Everything kept, for the in-memory index the gateway builds at start. */
  readonly load: () => Effect.Effect<TagsByOwner, StoreError>
  /**
   * Subscribes now, for the scope: the changes kept from then on that this process did not make through
   * `add` and `remove` (whose callers apply their own): with several gateways on one PostgreSQL database,
   * the others' (docs/replicas.md), in the order they were kept, for the index and the watchers to
   * follow. A store only this process writes (SQLite's) gives nothing.
   */
  readonly changes: Effect.Effect<Stream.Stream<TagFeedItem>, never, Scope.Scope>
}

/** The change feed of a store only this process writes: nobody else's changes ever come. */
export const noChangesElsewhere: TagStoreShape["changes"] = Effect.succeed(Stream.never)

/**
 * Where the client tags on services and channels are kept, so that they outlive a device's disconnection
 * and a restart: the core says what it needs, `src/store` keeps them (in SQLite), `src/main.ts` chooses.
 */
export class TagStore extends Context.Service<TagStore, TagStoreShape>()("app/TagStore") {}
