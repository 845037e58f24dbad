import { existsSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { CliError } from "effect/cli"
import { TokenGrants } from "../auth/TokenGrants.ts"
import { TokenCreationsInMemory } from "../auth/TokenCreationsInMemory.ts"
import { Tokens } from "../auth/Tokens.ts"
import { Users } from "../auth/Users.ts"
import { gatewayFlags } from "../GatewayFlags.ts"
import { defaultGatewayOptions } from "../GatewayOptions.ts"
import { flagsOf } from "../OptionFlag.ts"
import type { StoreError } from "../domain/StoreError.ts"
import { Database, type DatabaseError } from "../store/Database.ts"
import type { DatabaseTooNew } from "../store/Migrations.ts"
import { SqliteTokenStore } from "../store/SqliteTokenStore.ts"
import { SqliteUserStore } from "../store/SqliteUserStore.ts"

/**
 * What `gateway users` and `gateway tokens` work on: the database of `--data DIR`, opened beside a
 * running server if there is one (SQLite in WAL mode lets readers and one writer share it; a write
 * waits up to better-sqlite3's 5 s busy timeout for the server's).
 */
export const dataFlag = flagsOf(gatewayFlags).dataDir

const storeLayer = (dataDir: string) =>
  TokenGrants.layer().pipe(
    Layer.provideMerge(Layer.mergeAll(Users.layer, Tokens.layer({ sessionDays: defaultGatewayOptions.sessionDays }))),
    // The operator creates outside any rate: the count is only there for TokenGrants to have one.
    Layer.provide(Layer.mergeAll(SqliteUserStore, SqliteTokenStore, TokenCreationsInMemory)),
    Layer.provide(Database.layer({ dataDir }))
  )

/**
 * A data folder the gateway cannot open (a file where the folder should be, a corrupt `gateway.db`, one
 * written by a newer gateway): the one line `gateway serve` says too, exit 1.
 */
export const dataFolderUnusable = (dataDir: string, error: DatabaseError | DatabaseTooNew | StoreError) =>
  new CliError.UserError({ userMessage: `cannot use the data folder ${dataDir}: ${error.message}`, cause: error })

/**
 * A data folder that does not exist: a typo of `--data`, or a gateway that never ran there. Only
 * `gateway serve` makes its folder; these commands would make a database no server reads.
 */
const noDataFolder = (dataDir: string) =>
  userError(`cannot use the data folder ${dataDir}: no such folder (gateway serve makes it on its first run)`)

/**
 * Runs a `users`/`tokens` command on the database of `dataDir`, which must exist (an empty folder gets
 * a database). The command says its own failures as user errors (`asUserError`), so a database failure
 * left over is the opening's: the folder is unusable.
 */
export const withStore = (dataDir: string) => <A, R>(command: Effect.Effect<A, CliError.UserError, R>) =>
  Effect.suspend(() =>
    existsSync(dataDir)
      ? command.pipe(
        Effect.provide(storeLayer(dataDir)),
        Effect.catchTags({
          DatabaseError: (error) => Effect.fail(dataFolderUnusable(dataDir, error)),
          DatabaseTooNew: (error) => Effect.fail(dataFolderUnusable(dataDir, error))
        })
      )
      : Effect.fail(noDataFolder(dataDir))
  )

/** A failure the operator fixes (no such user, bad scope…): one line on stderr, exit 1. */
export const userError = (message: string) => new CliError.UserError({ userMessage: message, cause: message })

/** Every typed failure of these commands becomes that one line. */
export const asUserError = <A, R>(effect: Effect.Effect<A, { readonly message: string }, R>) =>
  Effect.mapError(effect, (error) => userError(error.message))
