import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import * as Stream from "effect/Stream"
import { type OwnerKind, type TagFeedItem, TagStore } from "../gateway/TagStore.ts"
import { feedChannel, PgChangeFeed, type TagNotice } from "./PgChangeFeed.ts"
import { asStoreError, PgDatabase } from "./PgDatabase.ts"
import { type TagRow, tagsByOwner } from "./TagRows.ts"

/** NOTIFY takes at most 8000 bytes: a call whose pairs would not fit tells the others to reload instead. */
const maxNoticeBytes = 7_900

/**
 * The gateway's TagStore in PostgreSQL's `tags` table: every (id, tag) pair of a call in one statement
 * (the ids and tags go as two JSON arrays, however many), so each call is all or nothing. The same
 * statement tells the other replicas what was asked (`pg_notify`, sent at its commit), and its change
 * feed gives what they asked: the replicas apply the calls in the order they committed. This process
 * applies its own call at once (Tags), so its own notice is dropped, unless another replica's notice
 * came between the call and it: that one may have undone part of this call in memory, so this call is
 * given again, in its place in the commit order. Applying a call twice is harmless: it puts pairs on
 * or takes them off.
 */
export const PgTagStore = Layer.effect(
  TagStore,
  Effect.gen(function*() {
    const { sql } = yield* PgDatabase
    const feed = yield* PgChangeFeed
    const counted = (rows: ReadonlyArray<{ readonly n: number }>) => rows[0]?.n ?? 0

    // This process's calls not yet heard back: by `seq`, how many others' notices had been heard when each was made.
    let seq = 0
    let othersHeard = 0
    const unheard = new Map<number, number>()
    const noticeOf = (ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>, added: boolean) => {
      seq += 1
      unheard.set(seq, othersHeard)
      const told = JSON.stringify({ about: "tags", origin: feed.origin, seq, ownerKind, ids, tags, added })
      return { seq, told: Buffer.byteLength(told) <= maxNoticeBytes ? told : JSON.stringify({ about: "tags", origin: feed.origin, seq, reload: true }) }
    }
    /** A call that failed told nobody: its notice will never come back. */
    const unsent = (sent: number) => Effect.sync(() => unheard.delete(sent))

    const items = yield* PubSub.unbounded<TagFeedItem>()
    const follow = (notice: TagNotice): ReadonlyArray<TagFeedItem> => {
      if (notice.about === "lost") {
        unheard.clear()
        return [{ reload: true }]
      }
      if (notice.origin === feed.origin) {
        const heardThen = unheard.get(notice.seq)
        unheard.delete(notice.seq)
        if (heardThen === undefined || heardThen === othersHeard) return []
      } else {
        othersHeard += 1
      }
      return ["reload" in notice ? { reload: true } : { ownerKind: notice.ownerKind, ids: notice.ids, tags: notice.tags, added: notice.added }]
    }
    const notices = yield* feed.tagNotices
    yield* Effect.forkScoped(Stream.runForEach(notices, (notice) => PubSub.publishAll(items, follow(notice))))

    const add = Effect.fn("TagStore.add")(function*(ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>) {
      if (ids.length === 0 || tags.length === 0) return 0
      const { seq: sent, told } = noticeOf(ownerKind, ids, tags, true)
      return yield* sql<{ readonly n: number }>`
        WITH added AS (
          INSERT INTO tags (owner_kind, owner_id, tag)
          SELECT DISTINCT ${ownerKind}, i.id, t.tag
          FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS i (id)
          CROSS JOIN jsonb_array_elements_text(${JSON.stringify(tags)}::jsonb) AS t (tag)
          ON CONFLICT DO NOTHING
          RETURNING 1
        )
        SELECT (SELECT count(*)::int FROM added) AS n, pg_notify(${feedChannel}, ${told})::text AS told`.pipe(
        Effect.map(counted),
        Effect.tapError(() => unsent(sent)),
        Effect.mapError(asStoreError("INSERT INTO tags …"))
      )
    })

    const remove = Effect.fn("TagStore.remove")(function*(ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>) {
      if (ids.length === 0 || tags.length === 0) return 0
      const { seq: sent, told } = noticeOf(ownerKind, ids, tags, false)
      return yield* sql<{ readonly n: number }>`
        WITH removed AS (
          DELETE FROM tags
          WHERE owner_kind = ${ownerKind}
            AND owner_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
            AND tag IN (SELECT jsonb_array_elements_text(${JSON.stringify(tags)}::jsonb))
          RETURNING 1
        )
        SELECT (SELECT count(*)::int FROM removed) AS n, pg_notify(${feedChannel}, ${told})::text AS told`.pipe(
        Effect.map(counted),
        Effect.tapError(() => unsent(sent)),
        Effect.mapError(asStoreError("DELETE FROM tags …"))
      )
    })

    const load = Effect.fn("TagStore.load")(function*() {
      const rows = yield* sql<TagRow>`
        SELECT owner_kind, owner_id, tag FROM tags`.pipe(Effect.mapError(asStoreError("SELECT … FROM tags")))
      return tagsByOwner(rows)
    })

    return TagStore.of({ add, remove, load, changes: Effect.map(PubSub.subscribe(items), Stream.fromSubscription) })
  })
)
