import type { StoredUser } from "../auth/UserStore.ts"

/** A row of the `users` table, in SQLite and PostgreSQL alike (PostgreSQL's time reads as a number). */
export interface Row {
  readonly id: number
  readonly username: string
  readonly email: string
  readonly password_hash: string
  readonly created_at: number
}

export const fromRow = (row: Row): StoredUser => ({
  id: row.id,
  username: row.username,
  email: row.email,
  passwordHash: row.password_hash,
  createdAt: row.created_at
})

export const columns = "id, username, email, password_hash, created_at"

