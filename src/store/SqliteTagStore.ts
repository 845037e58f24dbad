import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type OwnerKind, TagStore } from "../gateway/TagStore.ts"
import { asStoreError, Database, type SqlParams } from "./Database.ts"

const insertPair = "INSERT INTO tags (owner_kind, owner_id, tag) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
const deletePair = "DELETE FROM tags WHERE owner_kind = ? AND owner_id = ? AND tag = ?"
const selectAll = "SELECT owner_kind, owner_id, tag FROM tags"

/** Every (id, tag) pair as statement parameters, made as the statement consumes them. */
function* pairs(ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>): Generator<SqlParams> {
  for (const id of ids) for (const tag of tags) yield [ownerKind, id, tag]
}

/** The gateway's TagStore in the `tags` table: one transaction per call. */
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
        db.query<{ readonly owner_kind: OwnerKind; readonly owner_id: string; readonly tag: string }>(selectAll),
        asStoreError
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

    return TagStore.of({ add, remove, load })
  })
)
