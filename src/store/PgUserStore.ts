import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type StoredUser, UserStore } from "../auth/UserStore.ts"
import { asStoreError, PgDatabase } from "./PgDatabase.ts"
import { fromRow, type Row } from "./UserRows.ts"

/** The columns of a user, its time as a number (bigint would read as a JavaScript bigint). */
const columns = "id, username, email, password_hash, created_at::float8 AS created_at"

/**
 * Auth's UserStore in PostgreSQL's `users` table; removing a user removes its tokens by cascade. Every
 * write replaces the tokens' generation, as a removed user's tokens are no longer good.
 */
export const PgUserStore = Layer.effect(
  UserStore,
  Effect.gen(function*() {
    const { sql, wrote } = yield* PgDatabase
    const rows = (operation: string, query: string, params: ReadonlyArray<unknown> = []) =>
      sql.unsafe<Row>(query, params).pipe(Effect.map((found) => found.map(fromRow)), Effect.mapError(asStoreError(operation)))
    const writing = <A, E, R>(write: Effect.Effect<A, E, R>) => Effect.ensuring(write, wrote)

    const insert = (user: Omit<StoredUser, "id">) =>
      Effect.map(
        rows(
          "INSERT INTO users …",
          `INSERT INTO users (username, email, password_hash, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (username) DO NOTHING RETURNING ${columns}`,
          [user.username, user.email, user.passwordHash, user.createdAt]
        ),
        (inserted) => Option.fromUndefinedOr(inserted[0])
      )

    const count = Effect.map(
      sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM users`.pipe(Effect.mapError(asStoreError("SELECT count(*) FROM users"))),
      (found) => found[0]?.n ?? 0
    )

    // EXCLUSIVE: of two first runs (two gateways started at once), the second waits for the first's commit and then counts its user.
    const insertFirst = (user: Omit<StoredUser, "id">) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`LOCK TABLE users IN EXCLUSIVE MODE`.pipe(Effect.mapError(asStoreError("LOCK TABLE users")))
        return (yield* count) > 0 ? Option.none<StoredUser>() : yield* insert(user)
      })).pipe(Effect.mapError((error) => error._tag === "SqlError" ? asStoreError("a first user's transaction")(error) : error))

    const changed = (operation: string, query: string, params: ReadonlyArray<unknown>) =>
      writing(Effect.map(rows(operation, `${query} RETURNING ${columns}`, params), (found) => found.length > 0))

    return UserStore.of({
      count,
      insert: (user) => writing(insert(user)),
      insertFirst: (user) => writing(insertFirst(user)),
      byName: (username) => Effect.map(rows("SELECT … FROM users", `SELECT ${columns} FROM users WHERE username = $1`, [username]), (found) => Option.fromUndefinedOr(found[0])),
      // COLLATE "C": by code point, as SQLite orders, whatever the database's locale.
      list: rows("SELECT … FROM users", `SELECT ${columns} FROM users ORDER BY username COLLATE "C"`),
      remove: (username) => changed("DELETE FROM users …", "DELETE FROM users WHERE username = $1", [username]),
      setPasswordHash: (username, passwordHash) =>
        changed("UPDATE users …", "UPDATE users SET password_hash = $1 WHERE username = $2", [passwordHash, username])
    })
  })
)
