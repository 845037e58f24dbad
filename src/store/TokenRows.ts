import type { ListedToken, StoredToken, TokenKind } from "../auth/TokenStore.ts"

/** A row of the `tokens` table, in SQLite and PostgreSQL alike (PostgreSQL's times read as numbers). */
export interface Row {
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
  readonly created_by: number | null
}

const fromRow = (row: Row): StoredToken => ({
  id: row.id,
  tokenHash: row.token_hash,
  userId: row.user_id,
  kind: row.kind,
  label: row.label,
  scope: row.scope,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
  createdBy: row.created_by
})

/** A row of a listing: the token and its user's name. */
export type ListedRow = Row & { readonly username: string }

export const fromListedRow = (row: ListedRow): ListedToken => ({ ...fromRow(row), username: row.username })
