import { existsSync } from "node:fs"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { Command, Flag } from "effect/cli"
import { gatewayFlags, postgresUrl } from "../GatewayFlags.ts"
import { flagsOf } from "../OptionFlag.ts"
import { dataFlag, userError } from "./StoreAccess.ts"

const to = Flag.Redacted("to").pipe(
  Flag.withMetavar("URL"),
  postgresUrl,
  Flag.withDescription("the empty PostgreSQL database to copy into, postgres://USER@HOST:PORT/DATABASE")
)

/**
 * `gateway store copy --to URL`: the data folder's users, tokens and tags into an empty PostgreSQL
 * database, for a move to `--database-url` (docs/replicas.md). The password is found as the server
 * finds it. Run it with the gateway stopped: what it writes meanwhile is not copied.
 */
const copy = Command.make(
  "copy",
  { data: dataFlag, to, passwordFile: flagsOf(gatewayFlags).databasePasswordFile },
  (input) =>
    Effect.gen(function*() {
      const url = Redacted.value(input.to)
      if (!existsSync(input.data)) return yield* userError(`cannot copy the data folder ${input.data}: no such folder`)
      // The PostgreSQL driver is loaded for this command only, as for `serve --database-url`.
      const { copyDataFolder } = yield* Effect.promise(() => import("../store/StoreCopy.ts"))
      const copied = yield* copyDataFolder(input.data, { url, passwordFile: input.passwordFile }).pipe(
        Effect.mapError((error) => userError(`cannot copy ${input.data} to ${url}: ${error.message}`))
      )
      yield* Console.log(`copied ${copied.users} users, ${copied.tokens} tokens and ${copied.tags} tags from ${input.data} to ${url}`)
    })
).pipe(Command.withDescription("Copy the data folder's users, tokens and tags into an empty PostgreSQL database"))

/** `gateway store`: the store as a whole. */
export const storeCommand = Command.make("store").pipe(
  Command.withDescription("The store of users, tokens and tags as a whole"),
  Command.withSubcommands([copy])
)
