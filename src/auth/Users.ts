import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import type { StoreError } from "../domain/StoreError.ts"
import { decoyHash, hashPassword, PasswordCost, verifyPassword } from "./Password.ts"
import { checkEmail, checkPassword, checkUsername, type InvalidUserInput } from "./UserInput.ts"
import { type StoredUser, UserStore } from "./UserStore.ts"

export class UserExists extends Data.TaggedError("UserExists")<{ readonly username: string }> {
  override get message(): string {
    return `user ${this.username} already exists`
  }
}

export class NoSuchUser extends Data.TaggedError("NoSuchUser")<{ readonly username: string }> {
  override get message(): string {
    return `no user ${this.username}`
  }
}

export interface NewUser {
  readonly username: string
  readonly email: string
  readonly password: Redacted.Redacted<string>
}

export interface UsersShape {
  readonly count: Effect.Effect<number, StoreError>
  readonly add: (user: NewUser) => Effect.Effect<StoredUser, InvalidUserInput | UserExists | StoreError>
  /** Adds the first user; `None` when one exists already (setup and first run happen once). */
  readonly addFirst: (user: NewUser) => Effect.Effect<Option.Option<StoredUser>, InvalidUserInput | StoreError>
  /** The user these credentials name, if the password is right. */
  readonly verify: (username: string, password: Redacted.Redacted<string>) => Effect.Effect<Option.Option<StoredUser>, StoreError>
  readonly byName: (username: string) => Effect.Effect<Option.Option<StoredUser>, StoreError>
  readonly list: Effect.Effect<ReadonlyArray<StoredUser>, StoreError>
  readonly remove: (username: string) => Effect.Effect<void, NoSuchUser | StoreError>
  readonly setPassword: (
    username: string,
    password: Redacted.Redacted<string>
  ) => Effect.Effect<StoredUser, NoSuchUser | InvalidUserInput | StoreError>
}

const checked = (user: NewUser) =>
  Effect.fromResult(
    Result.all([checkUsername(user.username), checkEmail(user.email), checkPassword(Redacted.value(user.password))])
  )

/** Users and their passwords (docs/reference.md §8): only scrypt hashes are stored. */
export class Users extends Context.Service<Users, UsersShape>()("app/Users") {
  static readonly layer = Layer.effect(
    Users,
    Effect.gen(function*() {
      const repository = yield* UserStore
      const cost = yield* PasswordCost
      const decoy = decoyHash(cost)

      const row = (user: NewUser) =>
        Effect.map(hashPassword(user.password, cost), (passwordHash) => ({
          username: user.username,
          email: user.email,
          passwordHash,
          createdAt: Date.now()
        }))

      return Users.of({
        count: repository.count,
        add: (user) =>
          checked(user).pipe(
            Effect.andThen(row(user)),
            Effect.flatMap(repository.insert),
            Effect.flatMap(Option.match({
              onNone: () => Effect.fail(new UserExists({ username: user.username })),
              onSome: Effect.succeed
            }))
          ),
        addFirst: (user) => checked(user).pipe(Effect.andThen(row(user)), Effect.flatMap(repository.insertFirst)),
        verify: (username, password) =>
          Effect.gen(function*() {
            const found = yield* repository.byName(username)
            const matches = yield* verifyPassword(password, Option.match(found, { onNone: () => decoy, onSome: (u) => u.passwordHash }))
            return matches ? found : Option.none()
          }),
        byName: repository.byName,
        list: repository.list,
        remove: (username) =>
          Effect.flatMap(repository.remove(username), (removed) => removed ? Effect.void : Effect.fail(new NoSuchUser({ username }))),
        setPassword: (username, password) =>
          Effect.gen(function*() {
            yield* Effect.fromResult(checkPassword(Redacted.value(password)))
            const user = yield* Effect.flatMap(repository.byName(username), Option.match({
              onNone: () => Effect.fail(new NoSuchUser({ username })),
              onSome: Effect.succeed
            }))
            yield* repository.setPasswordHash(username, yield* hashPassword(password, cost))
            return user
          })
      })
    })
  )
}
