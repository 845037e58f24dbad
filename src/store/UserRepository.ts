import { Context, Effect, Layer, Option } from "effect"
import { Database, type DatabaseError } from "./Database.ts"

/** A user row. `passwordHash` is the stored scrypt string, never a password. */
export interface UserRow {
  readonly id: number
  readonly username: string
  readonly email: string
  readonly passwordHash: string
  readonly createdAt: number
}

export interface UserRepositoryShape {
  readonly count: Effect.Effect<number, DatabaseError>
  /** Inserts a user; `None` when the username is taken. */
  readonly insert: (user: Omit<UserRow, "id">) => Effect.Effect<Option.Option<UserRow>, DatabaseError>
  /**
   * Inserts the first user, in one transaction with the check that there is none yet: two first runs
   * (or a setup racing a CLI `users add`) cannot both create one. `None` when a user exists.
   */
  readonly insertFirst: (user: Omit<UserRow, "id">) => Effect.Effect<Option.Option<UserRow>, DatabaseError>
  readonly byName: (username: string) => Effect.Effect<Option.Option<UserRow>, DatabaseError>
  readonly list: Effect.Effect<ReadonlyArray<UserRow>, DatabaseError>
  /** Deletes the user and (by cascade) its tokens; answers whether there was one. */
  readonly remove: (username: string) => Effect.Effect<boolean, DatabaseError>
  readonly setPasswordHash: (username: string, passwordHash: string) => Effect.Effect<boolean, DatabaseError>
}

interface Row {
  readonly id: number
  readonly username: string
  readonly email: string
  readonly password_hash: string
  readonly created_at: number
}

const fromRow = (row: Row): UserRow => ({
  id: row.id,
  username: row.username,
  email: row.email,
  passwordHash: row.password_hash,
  createdAt: row.created_at
})

const columns = "id, username, email, password_hash, created_at"

/** Users, persisted. */
export class UserRepository extends Context.Service<UserRepository, UserRepositoryShape>()("app/UserRepository") {
  static readonly layer = Layer.effect(
    UserRepository,
    Effect.gen(function*() {
      const db = yield* Database
      const first = <A>(rows: ReadonlyArray<A>) => Option.fromUndefinedOr(rows[0])

      const byName = (username: string) =>
        Effect.map(db.query<Row>(`SELECT ${columns} FROM users WHERE username = ?`, [username]), (rows) =>
          Option.map(first(rows), fromRow))

      const insert = (user: Omit<UserRow, "id">) =>
        db.transaction(Effect.gen(function*() {
          if (Option.isSome(yield* byName(user.username))) return Option.none<UserRow>()
          const { lastInsertRowid } = yield* db.run(
            "INSERT INTO users (username, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
            [user.username, user.email, user.passwordHash, user.createdAt]
          )
          return Option.some<UserRow>({ ...user, id: Number(lastInsertRowid) })
        }))

      const count = Effect.map(db.query<{ readonly n: number }>("SELECT count(*) AS n FROM users"), (rows) => rows[0]?.n ?? 0)

      return UserRepository.of({
        count,
        insert,
        insertFirst: (user) =>
          db.transaction(Effect.flatMap(count, (n) => (n > 0 ? Effect.succeed(Option.none<UserRow>()) : insert(user)))),
        byName,
        list: Effect.map(db.query<Row>(`SELECT ${columns} FROM users ORDER BY username`), (rows) => rows.map(fromRow)),
        remove: (username) => Effect.map(db.run("DELETE FROM users WHERE username = ?", [username]), (r) => r.changes > 0),
        setPasswordHash: (username, passwordHash) =>
          Effect.map(
            db.run("UPDATE users SET password_hash = ? WHERE username = ?", [passwordHash, username]),
            (r) => r.changes > 0
          )
      })
    })
  )
}
