import { Context, Effect, Layer, Option } from "effect"
import { Database, type DatabaseError } from "./Database.ts"

export type TokenKind = "session" | "api"

/** A token row: its SHA-256 (hex), never the token itself. `scope` is the scope's JSON, `null` for the whole home. */
export interface TokenRow {
  readonly id: number
  readonly tokenHash: string
  readonly userId: number
  readonly kind: TokenKind
  readonly label: string
  readonly scope: string | null
  readonly createdAt: number
  readonly expiresAt: number | null
  readonly revokedAt: number | null
  readonly lastUsedAt: number | null
}

/** A token row with its user's name, as listings show it. */
export interface ListedToken extends TokenRow {
  readonly username: string
}

export interface TokenRepositoryShape {
  readonly insert: (token: Omit<TokenRow, "id" | "revokedAt" | "lastUsedAt">) => Effect.Effect<number, DatabaseError>
  /** The token with this hash, and its user's name: one indexed lookup per request. */
  readonly byHash: (tokenHash: string) => Effect.Effect<Option.Option<ListedToken>, DatabaseError>
  readonly list: Effect.Effect<ReadonlyArray<ListedToken>, DatabaseError>
  /** Marks the token revoked (if it was not); answers whether it exists. */
  readonly revoke: (id: number, at: number) => Effect.Effect<boolean, DatabaseError>
  /** Revokes every session token of a user (a changed password ends the sessions). */
  readonly revokeSessionsOf: (userId: number, at: number) => Effect.Effect<number, DatabaseError>
  readonly touch: (id: number, at: number) => Effect.Effect<void, DatabaseError>
  /**
   * Until when the token is good, if it exists, is not revoked and has not expired at `at`: its expiry,
   * `Infinity` if it never expires.
   */
  readonly validUntil: (id: number, at: number) => Effect.Effect<Option.Option<number>, DatabaseError>
}

interface Row {
  readonly id: number
  readonly token_hash: string
  readonly user_id: number
  readonly kind: TokenKind
  readonly label: string
  readonly scope: string | null
  readonly created_at: number
  readonly expires_at: number | null
  readonly revoked_at: number | null
  readonly last_used_at: number | null
}

const fromRow = (row: Row): TokenRow => ({
  id: row.id,
  tokenHash: row.token_hash,
  userId: row.user_id,
  kind: row.kind,
  label: row.label,
  scope: row.scope,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at
})

const columns = "t.id, t.token_hash, t.user_id, t.kind, t.label, t.scope, t.created_at, t.expires_at, t.revoked_at, t.last_used_at"

/** Tokens, persisted as hashes. */
export class TokenRepository extends Context.Service<TokenRepository, TokenRepositoryShape>()("app/TokenRepository") {
  static readonly layer = Layer.effect(
    TokenRepository,
    Effect.gen(function*() {
      const db = yield* Database
      return TokenRepository.of({
        insert: (token) =>
          Effect.map(
            db.run(
              "INSERT INTO tokens (token_hash, user_id, kind, label, scope, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
              [token.tokenHash, token.userId, token.kind, token.label, token.scope, token.createdAt, token.expiresAt]
            ),
            (r) => Number(r.lastInsertRowid)
          ),
        byHash: (tokenHash) =>
          Effect.map(
            db.query<Row & { readonly username: string }>(
              `SELECT ${columns}, u.username FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?`,
              [tokenHash]
            ),
            (rows) => Option.map(Option.fromUndefinedOr(rows[0]), (row) => ({ ...fromRow(row), username: row.username }))
          ),
        list: Effect.map(
          db.query<Row & { readonly username: string }>(
            `SELECT ${columns}, u.username FROM tokens t JOIN users u ON u.id = t.user_id ORDER BY t.id`
          ),
          (rows) => rows.map((row) => ({ ...fromRow(row), username: row.username }))
        ),
        revoke: (id, at) =>
          Effect.map(
            db.run("UPDATE tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?", [at, id]),
            (r) => r.changes > 0
          ),
        revokeSessionsOf: (userId, at) =>
          Effect.map(
            db.run("UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND kind = 'session' AND revoked_at IS NULL", [at, userId]),
            (r) => r.changes
          ),
        touch: (id, at) => Effect.asVoid(db.run("UPDATE tokens SET last_used_at = ? WHERE id = ?", [at, id])),
        validUntil: (id, at) =>
          Effect.map(
            db.query<{ readonly expires_at: number | null }>(
              "SELECT expires_at FROM tokens WHERE id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
              [id, at]
            ),
            (rows) => Option.map(Option.fromUndefinedOr(rows[0]), (row) => row.expires_at ?? Number.POSITIVE_INFINITY)
          )
      })
    })
  )
}
