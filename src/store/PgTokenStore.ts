import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { TokenStore } from "../auth/TokenStore.ts"
import { PgDatabase, statementOn } from "./PgDatabase.ts"
import { fromListedRow, type ListedRow } from "./TokenRows.ts"

/** The columns of a token, its times as numbers (bigint would read as a JavaScript bigint). */
const columns = [
  "t.id, t.token_hash, t.user_id, t.kind, t.label, t.scope, t.created_by",
  ...["created_at", "expires_at", "revoked_at", "last_used_at"].map((time) => `t.${time}::float8 AS ${time}`)
].join(", ")

const listed = `SELECT ${columns}, u.username FROM tokens t JOIN users u ON u.id = t.user_id`

/** A token and every token it created, down every generation, as the table `created` (as in SQLite's store). */
const createdFrom = "WITH RECURSIVE created (id) AS (SELECT id FROM tokens WHERE id = $1 UNION SELECT t.id FROM tokens t JOIN created c ON t.created_by = c.id)"

/** Auth's TokenStore in PostgreSQL's `tokens` table, as hashes. Every write replaces the generation. */
export const PgTokenStore = Layer.effect(
  TokenStore,
  Effect.gen(function*() {
    const { sql, generation, wrote, changed } = yield* PgDatabase
    const query = statementOn(sql)
    const writing = <A, E, R>(write: Effect.Effect<A, E, R>) => Effect.ensuring(write, wrote)
    const many = (text: string, params: ReadonlyArray<unknown>) =>
      Effect.map(query<ListedRow>("SELECT … FROM tokens", text, params), (rows) => rows.map(fromListedRow))
    const one = (text: string, key: unknown) => Effect.map(many(text, [key]), (rows) => Option.fromUndefinedOr(rows[0]))
    /** How many rows a write touched: its statement ends `RETURNING id`. */
    const touched = (operation: string, text: string, params: ReadonlyArray<unknown>) =>
      writing(Effect.map(query<{ readonly id: number }>(operation, text, params), (rows) => rows.length))

    return TokenStore.of({
      insert: (token) =>
        writing(Effect.flatMap(
          query<{ readonly id: number }>(
            "INSERT INTO tokens …",
            `INSERT INTO tokens (token_hash, user_id, kind, label, scope, created_at, expires_at, created_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
            [token.tokenHash, token.userId, token.kind, token.label, token.scope, token.createdAt, token.expiresAt, token.createdBy]
          ),
          (rows) => Effect.fromNullishOr(rows[0]?.id).pipe(Effect.orDie)
        )),
      byHash: (tokenHash) => one(`${listed} WHERE t.token_hash = $1`, tokenHash),
      byId: (id) => one(`${listed} WHERE t.id = $1`, id),
      list: ({ after, limit }) => many(`${listed} WHERE t.id > $1 ORDER BY t.id LIMIT $2`, [after, limit]),
      listOf: (userId, { after, limit }) => many(`${listed} WHERE t.user_id = $1 AND t.id > $2 ORDER BY t.id LIMIT $3`, [userId, after, limit]),
      revoke: (id, at) =>
        Effect.map(
          touched("UPDATE tokens SET revoked_at …", "UPDATE tokens SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING id", [id, at]),
          (n) => n > 0
        ),
      // One statement: the walk and the update see the same tokens, all revoked or none.
      revokeWithCreated: (id, at) =>
        writing(Effect.map(
          query<{ readonly id: number }>(
            "UPDATE tokens SET revoked_at … (created)",
            `${createdFrom}, revoked AS (UPDATE tokens SET revoked_at = coalesce(revoked_at, $2) WHERE id IN (SELECT id FROM created))
             SELECT id FROM created ORDER BY id`,
            [id, at]
          ),
          (rows) => rows.map((row) => row.id)
        )),
      liveApiTokensOf: (userId, at) =>
        Effect.map(
          query<{ readonly live: number }>(
            "SELECT count(*) FROM tokens …",
            `SELECT count(*)::int AS live FROM tokens
             WHERE user_id = $1 AND kind = 'api' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
            [userId, at]
          ),
          (rows) => rows[0]?.live ?? 0
        ),
      liveComparisonsOf: (userId, at) =>
        Effect.map(
          query<{ readonly id: number }>(
            "SELECT id FROM tokens … (comparisons)",
            `SELECT id FROM tokens
             WHERE user_id = $1 AND kind = 'comparison' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2) ORDER BY id`,
            [userId, at]
          ),
          (rows) => rows.map((row) => row.id)
        ),
      revokeSessionsOf: (userId, at) =>
        touched(
          "UPDATE tokens SET revoked_at … (sessions)",
          "UPDATE tokens SET revoked_at = $2 WHERE user_id = $1 AND kind = 'session' AND revoked_at IS NULL RETURNING id",
          [userId, at]
        ),
      touch: (id, at) => Effect.asVoid(touched("UPDATE tokens SET last_used_at …", "UPDATE tokens SET last_used_at = $2 WHERE id = $1 RETURNING id", [id, at])),
      validUntil: (id, at) =>
        Effect.map(
          query<{ readonly expires_at: number | null }>(
            "SELECT expires_at FROM tokens …",
            "SELECT expires_at::float8 AS expires_at FROM tokens WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)",
            [id, at]
          ),
          (rows) => Option.map(Option.fromUndefinedOr(rows[0]), (row) => row.expires_at ?? Number.POSITIVE_INFINITY)
        ),
      generation,
      changed
    })
  })
)
