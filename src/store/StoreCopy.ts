import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { asStoreError as fromSqlite, Database } from "./Database.ts"
import { asStoreError, PgDatabase } from "./PgDatabase.ts"
import { databaseFor, type PgStoreOptions } from "./PgStore.ts"
import type { TagRow } from "./TagRows.ts"
import type { Row as TokenRow } from "./TokenRows.ts"
import type { Row as UserRow } from "./UserRows.ts"

/** `gateway store copy` was pointed at a database that holds users, tokens or tags already. */
export class DatabaseNotEmpty extends Data.TaggedError("DatabaseNotEmpty")<{ readonly database: string; readonly held: string }> {
  override get message(): string {
    return `${this.database} is not empty (it holds ${this.held}): copy into an empty database, made with createdb`
  }
}

/** What was copied. */
export interface Copied {
  readonly users: number
  readonly tokens: number
  readonly tags: number
}

/**
 * Copies the users, tokens and tags of the SQLite database into the PostgreSQL one, which must be empty,
 * all in one transaction. Ids are kept (a token's id is in the answers about it, and tokens name their
 * creator by id), and the id sequences are advanced past them, so that new users and tokens take new ids.
 * Tokens stay valid: only their hashes are kept, in both.
 */
const copyStore = Effect.fn("StoreCopy.copyStore")(function*() {
  const sqlite = yield* Database
  const { sql, name, wrote } = yield* PgDatabase
  const read = <Row extends object>(query: string) => Effect.mapError(sqlite.query<Row>(query), fromSqlite)
  const users = yield* read<UserRow>("SELECT id, username, email, password_hash, created_at FROM users ORDER BY id")
  const tokens = yield* read<TokenRow>(
    "SELECT id, token_hash, user_id, kind, label, scope, created_at, expires_at, revoked_at, last_used_at, created_by FROM tokens ORDER BY id"
  )
  const tags = yield* read<TagRow>("SELECT owner_kind, owner_id, tag FROM tags")

  const write = (operation: string, query: string, rows: ReadonlyArray<object>) =>
    Effect.mapError(sql.unsafe(query, [JSON.stringify(rows)]), asStoreError(operation))
  const copy = Effect.gen(function*() {
    // Nothing may be written meanwhile: a gateway starting on the database now waits for the copy.
    yield* Effect.mapError(sql`LOCK TABLE users, tokens, tags IN EXCLUSIVE MODE`, asStoreError("LOCK TABLE users, tokens, tags"))
    const [held] = yield* Effect.mapError(
      sql<{ readonly users: number; readonly tokens: number; readonly tags: number }>`
        SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM tokens) AS tokens, (SELECT count(*)::int FROM tags) AS tags`,
      asStoreError("counting what the database holds")
    )
    if (held !== undefined && held.users + held.tokens + held.tags > 0) {
      return yield* new DatabaseNotEmpty({ database: name, held: `${held.users} users, ${held.tokens} tokens, ${held.tags} tags` })
    }
    yield* write(
      "INSERT INTO users …",
      `INSERT INTO users (id, username, email, password_hash, created_at)
       SELECT id, username, email, password_hash, created_at
       FROM jsonb_to_recordset($1::jsonb) AS r (id integer, username text, email text, password_hash text, created_at bigint)`,
      users
    )
    // By id: a token's creator is an older token, so it is there before the tokens it created.
    yield* write(
      "INSERT INTO tokens …",
      `INSERT INTO tokens (id, token_hash, user_id, kind, label, scope, created_at, expires_at, revoked_at, last_used_at, created_by)
       SELECT id, token_hash, user_id, kind, label, scope, created_at, expires_at, revoked_at, last_used_at, created_by
       FROM jsonb_to_recordset($1::jsonb) AS r (
         id integer, token_hash text, user_id integer, kind text, label text, scope text,
         created_at bigint, expires_at bigint, revoked_at bigint, last_used_at bigint, created_by integer
       )
       ORDER BY id`,
      tokens
    )
    yield* write(
      "INSERT INTO tags …",
      "INSERT INTO tags (owner_kind, owner_id, tag) SELECT owner_kind, owner_id, tag FROM jsonb_to_recordset($1::jsonb) AS r (owner_kind text, owner_id text, tag text)",
      tags
    )
    for (const table of ["users", "tokens"]) {
      yield* Effect.mapError(
        sql.unsafe(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), coalesce(max(id), 0) + 1, false) FROM ${table}`),
        asStoreError(`advancing the ids of ${table}`)
      )
    }
    return { users: users.length, tokens: tokens.length, tags: tags.length } satisfies Copied
  })
  return yield* Effect.ensuring(
    sql.withTransaction(copy).pipe(Effect.mapError((error) => (error._tag === "SqlError" ? asStoreError("the copy's transaction")(error) : error))),
    wrote
  )
})

/** `gateway store copy`: the data folder's store into the database of `to` (loaded on demand, as the server loads it). */
export const copyDataFolder = (dataDir: string, to: PgStoreOptions) =>
  copyStore().pipe(Effect.provide(Layer.merge(Database.layer({ dataDir }), databaseFor(to))))
