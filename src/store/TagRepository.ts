import { Context, Effect, Layer } from "effect"
import { Database, type DatabaseError, type SqlParams } from "./Database.ts"

/** What a tag is put on. Ids of the two kinds live in separate namespaces. */
export type OwnerKind = "service" | "channel"

/** Every persisted tag: per owner kind, per id, its tags. Ids without tags are absent. */
export type TagsByOwner = { readonly [K in OwnerKind]: ReadonlyMap<string, ReadonlySet<string>> }

/**
 * Ids and tags are plain strings here: the domain checks and brands them, and this layer stays free of it.
 */
export interface TagRepositoryShape {
  /** Puts every tag on every id, in one transaction. Tags already there stay; answers how many pairs are new. */
  readonly add: (
    ownerKind: OwnerKind,
    ids: ReadonlyArray<string>,
    tags: ReadonlyArray<string>
  ) => Effect.Effect<number, DatabaseError>
  /** Takes every tag off every id, in one transaction. Absent pairs are fine; answers how many were removed. */
  readonly remove: (
    ownerKind: OwnerKind,
    ids: ReadonlyArray<string>,
    tags: ReadonlyArray<string>
  ) => Effect.Effect<number, DatabaseError>
  /** Everything persisted, for the in-memory index the gateway builds at start. */
  readonly load: () => Effect.Effect<TagsByOwner, DatabaseError>
}

const insertPair = "INSERT INTO tags (owner_kind, owner_id, tag) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
const deletePair = "DELETE FROM tags WHERE owner_kind = ? AND owner_id = ? AND tag = ?"
const selectAll = "SELECT owner_kind, owner_id, tag FROM tags"

/** Every (id, tag) pair as statement parameters, made as the statement consumes them. */
function* pairs(ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>): Generator<SqlParams> {
  for (const id of ids) for (const tag of tags) yield [ownerKind, id, tag]
}

/** Client tags on services and channels, persisted. */
export class TagRepository extends Context.Service<TagRepository, TagRepositoryShape>()("app/TagRepository") {
  static readonly layer = Layer.effect(
    TagRepository,
    Effect.gen(function*() {
      const db = yield* Database

      const add = Effect.fn("TagRepository.add")(function*(
        ownerKind: OwnerKind,
        ids: ReadonlyArray<string>,
        tags: ReadonlyArray<string>
      ) {
        if (ids.length === 0 || tags.length === 0) return 0
        return yield* db.runMany(insertPair, pairs(ownerKind, ids, tags))
      })

      const remove = Effect.fn("TagRepository.remove")(function*(
        ownerKind: OwnerKind,
        ids: ReadonlyArray<string>,
        tags: ReadonlyArray<string>
      ) {
        if (ids.length === 0 || tags.length === 0) return 0
        return yield* db.runMany(deletePair, pairs(ownerKind, ids, tags))
      })

      const load = Effect.fn("TagRepository.load")(function*() {
        const rows = yield* db.query<{ readonly owner_kind: OwnerKind; readonly owner_id: string; readonly tag: string }>(
          selectAll
        )
        const byKind = { service: new Map<string, Set<string>>(), channel: new Map<string, Set<string>>() }
        for (const row of rows) {
          const byId = byKind[row.owner_kind]
          const tags = byId.get(row.owner_id)
          if (tags === undefined) byId.set(row.owner_id, new Set([row.tag]))
          else tags.add(row.tag)
        }
        return byKind
      })

      return TagRepository.of({ add, remove, load })
    })
  )
}
