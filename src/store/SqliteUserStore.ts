import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type StoredUser, UserStore } from "../auth/UserStore.ts"
import { asStoreError, Database } from "./Database.ts"
import { columns, fromRow, type Row } from "./UserRows.ts"

/** Auth's UserStore in the `users` table; removing a user removes its tokens by cascade. */
export const SqliteUserStore = Layer.effect(
  UserStore,
  Effect.gen(function*() {
    const db = yield* Database
    const first = <A>(rows: ReadonlyArray<A>) => Option.fromUndefinedOr(rows[0])

    const byName = (username: string) =>
      Effect.map(db.query<Row>(`SELECT ${columns} FROM users WHERE username = ?`, [username]), (rows) =>
        Option.map(first(rows), fromRow))

    const insert = (user: Omit<StoredUser, "id">) =>
      db.transaction(Effect.gen(function*() {
        if (Option.isSome(yield* byName(user.username))) return Option.none<StoredUser>()
        const { lastInsertRowid } = yield* db.run(
          "INSERT INTO users (username, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
          [user.username, user.email, user.passwordHash, user.createdAt]
        )
        return Option.some<StoredUser>({ ...user, id: Number(lastInsertRowid) })
      }))

    const count = Effect.map(db.query<{ readonly n: number }>("SELECT count(*) AS n FROM users"), (rows) => rows[0]?.n ?? 0)

    return UserStore.of({
      count: Effect.mapError(count, asStoreError),
      insert: (user) => Effect.mapError(insert(user), asStoreError),
      insertFirst: (user) =>
        db.transaction(Effect.flatMap(count, (n) => (n > 0 ? Effect.succeed(Option.none<StoredUser>()) : insert(user)))).pipe(
          Effect.mapError(asStoreError)
        ),
      byName: (username) => Effect.mapError(byName(username), asStoreError),
      list: Effect.map(db.query<Row>(`SELECT ${columns} FROM users ORDER BY username`), (rows) => rows.map(fromRow)).pipe(
        Effect.mapError(asStoreError)
      ),
      remove: (username) =>
        Effect.map(db.run("DELETE FROM users WHERE username = ?", [username]), (r) => r.changes > 0).pipe(Effect.mapError(asStoreError)),
      setPasswordHash: (username, passwordHash) =>
        Effect.map(
          db.run("UPDATE users SET password_hash = ? WHERE username = ?", [passwordHash, username]),
          (r) => r.changes > 0
        ).pipe(Effect.mapError(asStoreError))
    })
  })
)
