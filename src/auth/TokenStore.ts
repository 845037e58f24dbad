import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { StoreError } from "../domain/StoreError.ts"
import type { TokenKind } from "../domain/Token.ts"

export type { TokenKind }

/** A token as kept: its SHA-256 (hex), never the token itself. `scope` is the scope's JSON, `null` for the whole home. */
export interface StoredToken {
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
  /** The token that created it (over HTTP); `null`: none kept (the command line, a login, a token older than creators). */
  readonly createdBy: number | null
}

/** A token with its user's name, as listings show it. */
export interface ListedToken extends StoredToken {
  readonly username: string
}

/** A page of a listing by id: the tokens whose id is above `after` (0: from the first), at most `limit` of them. */
export interface TokenPage {
  readonly after: number
  readonly limit: number
}

/** One generation of what the store holds (see `TokenStoreShape.generation`): compared by identity, holds nothing. */
export interface Generation {
  readonly _brand: "Generation"
}

/** A generation unlike every other: a store makes one whenever what it holds may have changed. */
export const newGeneration = (): Generation => Object.freeze({}) as Generation

export interface TokenStoreShape {
  /** Keeps a new token of an existing user under a new id. */
  readonly insert: (token: Omit<StoredToken, "id" | "revokedAt" | "lastUsedAt">) => Effect.Effect<number, StoreError>
  /** The token with this hash, and its user's name: on the path of a request not found in the cache. */
  readonly byHash: (tokenHash: string) => Effect.Effect<Option.Option<ListedToken>, StoreError>
  /** The token with this id, and its user's name. */
  readonly byId: (id: number) => Effect.Effect<Option.Option<ListedToken>, StoreError>
  /** A page of every user's tokens, by id. */
  readonly list: (page: TokenPage) => Effect.Effect<ReadonlyArray<ListedToken>, StoreError>
  /** A page of one user's tokens, by id, at a cost in proportion to the page, not to all the tokens kept. */
  readonly listOf: (userId: number, page: TokenPage) => Effect.Effect<ReadonlyArray<ListedToken>, StoreError>
  /** Marks the token revoked at `at` (if it was not); answers whether it exists. */
  readonly revoke: (id: number, at: number) => Effect.Effect<boolean, StoreError>
  /**
   * Marks the token revoked at `at`, and every token it created, transitively, all at once (those revoked
   * already keep their time). Answers their ids, the token's first; none if it does not exist.
   */
  readonly revokeWithCreated: (id: number, at: number) => Effect.Effect<ReadonlyArray<number>, StoreError>
  /** How many API tokens of the user are live at `at`: neither revoked nor expired (sessions are not counted). */
  readonly liveApiTokensOf: (userId: number, at: number) => Effect.Effect<number, StoreError>
  /** The ids of the user's comparison tokens live at `at`: neither revoked nor expired. */
  readonly liveComparisonsOf: (userId: number, at: number) => Effect.Effect<ReadonlyArray<number>, StoreError>
  /** Revokes every session token of a user (a changed password ends the sessions); answers how many. */
  readonly revokeSessionsOf: (userId: number, at: number) => Effect.Effect<number, StoreError>
  /** Records the token's last use. */
  readonly touch: (id: number, at: number) => Effect.Effect<void, StoreError>
  /**
   * Until when the token is good, if it exists, is not revoked and has not expired at `at`: its expiry,
   * `Infinity` if it never expires.
   */
  readonly validUntil: (id: number, at: number) => Effect.Effect<Option.Option<number>, StoreError>
  /**
   * The generation of the users and tokens kept: a value replaced whenever they may have changed (by
   * this gateway or by another process, such as the command line, on the same data), so that a cache
   * of them stays good exactly while the generation it was filled in is current. Known at once: a
   * request's token found in a cache is let in without a fiber (Tokens.authenticate).
   */
  readonly generation: () => Generation
  /**
   * Completes when the generation is next replaced by a change this store is told of as it happens (a
   * write, or PostgreSQL's notice of another process's): what waits on a change need not wait for its
   * next look. A store that learns of others' changes only when asked (SQLite's file) may never complete
   * for them; whoever waits looks again on a timer too.
   */
  readonly changed: Effect.Effect<void>
}

/** Where tokens are kept: auth says what it needs, `src/store` keeps them (in SQLite), `src/main.ts` chooses. */
export class TokenStore extends Context.Service<TokenStore, TokenStoreShape>()("app/TokenStore") {}
