import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { TokenStore } from "../auth/TokenStore.ts"
import { asStoreError, Database, type SqlParams, type SqlValue } from "./Database.ts"
import { fromListedRow, type ListedRow } from "./TokenRows.ts"

const columns = "t.id, t.token_hash, t.user_id, t.kind, t.label, t.scope, t.created_at, t.expires_at, t.revoked_at, t.last_used_at, t.created_by"

/**
 * A token and every token it created, down every generation, as the table `created`. A creator's id is
 * always lower than its tokens', so the walk ends.
 */
const createdFrom = "WITH RECURSIVE created (id) AS (SELECT id FROM tokens WHERE id = ? UNION SELECT t.id FROM tokens t JOIN created c ON t.created_by = c.id)"

const listed = `SELECT ${columns}, u.username FROM tokens t JOIN users u ON u.id = t.user_id`

/**
 * A page of one user's tokens. The index by user holds the rowid (the id) after the user: the page is a
 * range of that index, read in order, whatever other users hold (test/store/tokenQueryPlans.test.ts).
 */
export const tokensOfUser = `${listed} WHERE t.user_id = ? AND t.id > ? ORDER BY t.id LIMIT ?`

const everyToken = `${listed} WHERE t.id > ? ORDER BY t.id LIMIT ?`

/**
 * Auth's TokenStore in the `tokens` table, as hashes. Its generation is the database's: a commit by
 * another process (the command line beside a running server) replaces it too.
 */
export const SqliteTokenStore = Layer.effect(
  TokenStore,
  Effect.gen(function*() {
    const db = yield* Database
    const many = (sql: string, params: SqlParams) =>
      Effect.map(db.query<ListedRow>(sql, params), (rows) => rows.map(fromListedRow)).pipe(Effect.mapError(asStoreError))
    const one = (sql: string, key: SqlValue) => Effect.map(many(sql, [key]), (rows) => Option.fromUndefinedOr(rows[0]))
    return TokenStore.of({
      insert: (token) =>
        Effect.map(
          db.run(
            "INSERT INTO tokens (token_hash, user_id, kind, label, scope, created_at, expires_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [token.tokenHash, token.userId, token.kind, token.label, token.scope, token.createdAt, token.expiresAt, token.createdBy]
          ),
          (r) => Number(r.lastInsertRowid)
        ).pipe(Effect.mapError(asStoreError)),
      byHash: (tokenHash) => one(`${listed} WHERE t.token_hash = ?`, tokenHash),
      byId: (id) => one(`${listed} WHERE t.id = ?`, id),
      list: ({ after, limit }) => many(everyToken, [after, limit]),
      listOf: (userId, { after, limit }) => many(tokensOfUser, [userId, after, limit]),
      revoke: (id, at) =>
        Effect.map(
          db.run("UPDATE tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?", [at, id]),
          (r) => r.changes > 0
        ).pipe(Effect.mapError(asStoreError)),
      revokeWithCreated: (id, at) =>
        db.transaction(Effect.gen(function*() {
          const ids = (yield* db.query<{ readonly id: number }>(`${createdFrom} SELECT id FROM created ORDER BY id`, [id])).map((r) => r.id)
          if (ids.length > 0) yield* db.run(`${createdFrom} UPDATE tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id IN (SELECT id FROM created)`, [id, at])
          return ids
        })).pipe(Effect.mapError(asStoreError)),
      liveApiTokensOf: (userId, at) =>
        Effect.map(
          db.query<{ readonly live: number }>(
            `SELECT count(*) AS live FROM tokens
             WHERE user_id = ? AND kind = 'api' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
            [userId, at]
          ),
          (rows) => rows[0]?.live ?? 0
        ).pipe(Effect.mapError(asStoreError)),
      liveComparisonsOf: (userId, at) =>
        Effect.map(
          db.query<{ readonly id: number }>(
            `SELECT id FROM tokens
             WHERE user_id = ? AND kind = 'comparison' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) ORDER BY id`,
            [userId, at]
          ),
          (rows) => rows.map((row) => row.id)
        ).pipe(Effect.mapError(asStoreError)),
      revokeSessionsOf: (userId, at) =>
        Effect.map(
          db.run("UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND kind = 'session' AND revoked_at IS NULL", [at, userId]),
          (r) => r.changes
        ).pipe(Effect.mapError(asStoreError)),
      touch: (id, at) => Effect.asVoid(db.run("UPDATE tokens SET last_used_at = ? WHERE id = ?", [at, id])).pipe(Effect.mapError(asStoreError)),
      validUntil: (id, at) =>
        Effect.map(
          db.query<{ readonly expires_at: number | null }>(
            "SELECT expires_at FROM tokens WHERE id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
            [id, at]
          ),
          (rows) => Option.map(Option.fromUndefinedOr(rows[0]), (row) => row.expires_at ?? Number.POSITIVE_INFINITY)
        ).pipe(Effect.mapError(asStoreError)),
      generation: db.generation,
      // A commit by another process is seen when the generation is read: LiveSockets' timer reads it.
      changed: Effect.never
    })
  })
)
