import * as Schema from "effect/Schema"
import { TokenKind, TokenScope, TokenStatus } from "./Access.ts"
import { Timestamp } from "./Channel.ts"
import { Label } from "./Identifier.ts"

/**
 * Tokens as their holders manage them (docs/auth.md): a token as listed, and one to create. A token is
 * shown by its id, never its secret, which exists only in the answer that creates it.
 */

export { TokenKind }

/** A token as listed: what it is, never the token itself. */
export const TokenView = Schema.Struct({
  id: Schema.Int,
  kind: TokenKind,
  label: Schema.String,
  status: TokenStatus,
  /** `None`: the whole home with every right. */
  scope: Schema.Option(TokenScope),
  createdAt: Timestamp,
  expiresAt: Schema.NullOr(Timestamp),
  lastUsedAt: Schema.NullOr(Timestamp),
  /** The id of the token that created it over HTTP; `null`: the command line, a login, or made before creators were kept. */
  createdBy: Schema.NullOr(Schema.Int),
  /** Whether it is the token of the request that lists it. */
  current: Schema.Boolean
})
export interface TokenView extends Schema.Schema.Type<typeof TokenView> {}

/** A token as created: how it is listed, and its secret, shown this once. */
export const CreatedToken = Schema.Struct({ token: TokenView, secret: Schema.String })
export interface CreatedToken extends Schema.Schema.Type<typeof CreatedToken> {}

/**
 * A token to create: its label, its scope (`None`: the creator's whole reach), its expiry (`None`: the
 * default; `Some(None)`: never).
 */
export const NewToken = Schema.Struct({
  label: Label,
  scope: Schema.Option(TokenScope),
  expiresAt: Schema.Option(Schema.Option(Timestamp))
})
export interface NewToken extends Schema.Schema.Type<typeof NewToken> {}
