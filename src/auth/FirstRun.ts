import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { randomPassword } from "./Password.ts"
import { dayMs, Tokens } from "./Tokens.ts"
import { Users } from "./Users.ts"

export interface FirstRunOptions {
  /** Whether to create the admin at all (`--no-default-admin` says not to). */
  readonly defaultAdmin: boolean
  /** Days the admin's first token lasts (`--session-days`). */
  readonly sessionDays: number
}

/**
 * First run (docs/reference.md §8): on a database with no user, unless `--no-default-admin`, create `admin` with a
 * random password and a token, and print both once on stdout (`admin password: …`, `admin token: …`),
 * once the port is bound and before `listening on` (Server.layerOnceBound): a start that cannot listen
 * must not spend them. Only their hashes are stored: lost, they are replaced with `gateway users
 * passwd admin` and `gateway tokens create`. The token is kept here so that the curl example printed
 * after `listening on` (which knows the port) can show it.
 */
export class FirstRun extends Context.Service<FirstRun, { readonly adminToken: Option.Option<Redacted.Redacted<string>> }>()(
  "app/FirstRun"
) {
  static readonly layer = ({ defaultAdmin, sessionDays }: FirstRunOptions) => Layer.effect(
    FirstRun,
    Effect.gen(function*() {
      if (!defaultAdmin) return { adminToken: Option.none() }
      const users = yield* Users
      if ((yield* users.count) > 0) return { adminToken: Option.none() }
      const password = randomPassword()
      const admin = yield* users.addFirst({ username: "admin", email: "", password })
      if (Option.isNone(admin)) return { adminToken: Option.none() }
      const { token } = yield* Tokens.use((t) =>
        t.create({
          user: admin.value,
          kind: "api",
          label: "first run",
          scope: Option.none(),
          expiresAt: Option.some(Date.now() + sessionDays * dayMs)
        })
      )
      yield* Console.log(`admin password: ${Redacted.value(password)}`)
      yield* Console.log(`admin token: ${Redacted.value(token)}`)
      return { adminToken: Option.some(token) }
    }).pipe(
      // Our own name and a random password are valid input; a database that refuses the user (read-only)
      // stays a StoreError, which `gateway serve` tells in one line like any unusable data folder.
      Effect.catchTag("InvalidUserInput", Effect.die)
    )
  )
}
