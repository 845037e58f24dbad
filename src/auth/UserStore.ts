import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { StoreError } from "../domain/StoreError.ts"

/** A user as kept. `passwordHash` is the scrypt string, never a password. */
export interface StoredUser {
  readonly id: number
  readonly username: string
  readonly email: string
  readonly passwordHash: string
  readonly createdAt: number
}

export interface UserStoreShape {
  readonly count: Effect.Effect<number, StoreError>
  /** Keeps a new user under a new id; `None` when the username is taken. */
  readonly insert: (user: Omit<StoredUser, "id">) => Effect.Effect<Option.Option<StoredUser>, StoreError>
  /**
   * Keeps the first user, at once with the check that there is none yet: two first runs (or a setup
   * racing a command line `users add`) cannot both create one. `None` when a user exists.
   */
  readonly insertFirst: (user: Omit<StoredUser, "id">) => Effect.Effect<Option.Option<StoredUser>, StoreError>
  readonly byName: (username: string) => Effect.Effect<Option.Option<StoredUser>, StoreError>
  /** Every user, by username. */
  readonly list: Effect.Effect<ReadonlyArray<StoredUser>, StoreError>
  /** Forgets the user and its tokens; answers whether there was one. */
  readonly remove: (username: string) => Effect.Effect<boolean, StoreError>
  /** Answers whether there is such a user. */
  readonly setPasswordHash: (username: string, passwordHash: string) => Effect.Effect<boolean, StoreError>
}

/** Where users are kept: auth says what it needs, `src/store` keeps them (in SQLite), `src/main.ts` chooses. */
export class UserStore extends Context.Service<UserStore, UserStoreShape>()("app/UserStore") {}
