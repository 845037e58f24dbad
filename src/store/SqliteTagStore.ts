import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { noChangesElsewhere, type OwnerKind, TagStore } from "../gateway/TagStore.ts"
import { asStoreError, Database, type SqlParams } from "./Database.ts"
import { type TagRow, tagsByOwner } from "./TagRows.ts"

const insertPair = "INSERT INTO tags (owner_kind, owner_id, tag) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
const deletePair = "DELETE FROM tags WHERE owner_kind = ? AND owner_id = ? AND tag = ?"
const selectAll = "SELECT owner_kind, owner_id, tag FROM tags"

/** Every (id, tag) pair as statement parameters, made as the statement consumes them. */
function* pairs(ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>): Generator<SqlParams> {
  for (const id of ids) for (const tag of tags) yield [ownerKind, id, tag]
}

/** The gateway's TagStore in the `tags` table: one transaction per call. One gateway writes it: no changes come from elsewhere. */
export const SqliteTagStore = Layer.effect(
  TagStore,
  Effect.gen(function*() {
    const db = yield* Database

    const add = Effect.fn("TagStore.add")(function*(ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>) {
      if (ids.length === 0 || tags.length === 0) return 0
      return yield* Effect.mapError(db.runMany(insertPair, pairs(ownerKind, ids, tags)), asStoreError)
    })

    const remove = Effect.fn("TagStore.remove")(function*(ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>) {
      if (ids.length === 0 || tags.length === 0) return 0
      return yield* Effect.mapError(db.runMany(deletePair, pairs(ownerKind, ids, tags)), asStoreError)
    })

    const load = Effect.fn("TagStore.load")(function*() {
      const rows = yield* Effect.mapError(
        db.query<TagRow>(selectAll),
        asStoreError
      )
      return tagsByOwner(rows)
    })

    return TagStore.of({ add, remove, load, changes: noChangesElsewhere })
  })
)
