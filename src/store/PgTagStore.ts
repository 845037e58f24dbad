import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type OwnerKind, TagStore } from "../gateway/TagStore.ts"
import { asStoreError, PgDatabase } from "./PgDatabase.ts"
import { makeTagChanges } from "./TagChanges.ts"
import { type TagRow, tagsByOwner } from "./TagRows.ts"

/**
 * The gateway's TagStore in PostgreSQL's `tags` table: every (id, tag) pair of a call in one statement
 * (the ids and tags go as two JSON arrays, however many), so each call is all or nothing.
 */
export const PgTagStore = Layer.effect(
  TagStore,
  Effect.gen(function*() {
    const { sql } = yield* PgDatabase
    const { kept, changes } = yield* makeTagChanges
    const counted = (rows: ReadonlyArray<{ readonly n: number }>) => rows[0]?.n ?? 0

    const add = Effect.fn("TagStore.add")(function*(ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>) {
      if (ids.length === 0 || tags.length === 0) return 0
      const added = yield* sql<{ readonly n: number }>`
        WITH added AS (
          INSERT INTO tags (owner_kind, owner_id, tag)
          SELECT DISTINCT ${ownerKind}, i.id, t.tag
          FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS i (id)
          CROSS JOIN jsonb_array_elements_text(${JSON.stringify(tags)}::jsonb) AS t (tag)
          ON CONFLICT DO NOTHING
          RETURNING 1
        )
        SELECT count(*)::int AS n FROM added`.pipe(Effect.map(counted), Effect.mapError(asStoreError("INSERT INTO tags …")))
      return yield* kept(ownerKind, ids, tags, true)(added)
    })

    const remove = Effect.fn("TagStore.remove")(function*(ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>) {
      if (ids.length === 0 || tags.length === 0) return 0
      const removed = yield* sql<{ readonly n: number }>`
        WITH removed AS (
          DELETE FROM tags
          WHERE owner_kind = ${ownerKind}
            AND owner_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
            AND tag IN (SELECT jsonb_array_elements_text(${JSON.stringify(tags)}::jsonb))
          RETURNING 1
        )
        SELECT count(*)::int AS n FROM removed`.pipe(Effect.map(counted), Effect.mapError(asStoreError("DELETE FROM tags …")))
      return yield* kept(ownerKind, ids, tags, false)(removed)
    })

    const load = Effect.fn("TagStore.load")(function*() {
      const rows = yield* sql<TagRow>`
        SELECT owner_kind, owner_id, tag FROM tags`.pipe(Effect.mapError(asStoreError("SELECT … FROM tags")))
      return tagsByOwner(rows)
    })

    return TagStore.of({ add, remove, load, changes })
  })
)
