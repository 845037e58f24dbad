import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { existsSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { CliError } from "effect/cli"
import { TokenGrants } from "../auth/TokenGrants.ts"
import { TokenCreationsInMemory } from "../auth/TokenCreationsInMemory.ts"
import type { TokenStore } from "../auth/TokenStore.ts"
import { Tokens } from "../auth/Tokens.ts"
import { Users } from "../auth/Users.ts"
import type { UserStore } from "../auth/UserStore.ts"
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
 * waits up to better-sqlite3's 5 s busy timeout for the server's); or with `--database-url` the
 * PostgreSQL database the servers share, whose triggers tell every running one what changed
 * (docs/replicas.md).
 */
export const dataFlag = flagsOf(gatewayFlags).dataDir

/** The flags that say where: every `users` and `tokens` command takes them. */
export const storeFlags = {
  data: dataFlag,
  databaseUrl: flagsOf(gatewayFlags).databaseUrl,
  databasePasswordFile: flagsOf(gatewayFlags).databasePasswordFile
}

/** Where a command works, as `storeFlags` read. */
export interface StorePlace {
  readonly data: string
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  readonly databasePasswordFile: Option.Option<string>
}

/** The services of the commands on a UserStore and a TokenStore. */
const servicesOn = <E>(stores: Layer.Layer<UserStore | TokenStore, E>) =>
  TokenGrants.layer().pipe(
    Layer.provideMerge(Layer.mergeAll(Users.layer, Tokens.layer({ sessionDays: defaultGatewayOptions.sessionDays }))),
    // The operator creates outside any rate: the count is only there for TokenGrants to have one.
    Layer.provide(Layer.merge(stores, TokenCreationsInMemory))
  )

const storeLayer = (dataDir: string) => servicesOn(Layer.mergeAll(SqliteUserStore, SqliteTokenStore).pipe(Layer.provide(Database.layer({ dataDir }))))

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
const onDataFolder = (dataDir: string) => <A, R>(command: Effect.Effect<A, CliError.UserError, R>) =>
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

/**
 * Runs a command on the PostgreSQL database of `url` (its driver loaded for it only, as for `serve`),
 * migrated if need be; a database it cannot use is the one line `serve` says.
 */
const onDatabase = (url: string, passwordFile: Option.Option<string>) => <A, R>(command: Effect.Effect<A, CliError.UserError, R>) =>
  Effect.flatMap(Effect.promise(() => import("../store/PgStore.ts")), (PgStore) =>
    command.pipe(
      Effect.provide(servicesOn(PgStore.authLayerFor({ url, passwordFile }).pipe(Layer.provide(NodeFileSystem.layer)))),
      Effect.catchTags({
        DatabasePasswordFileUnusable: (error) => Effect.fail(userError(error.message)),
        StoreError: (error) => Effect.fail(userError(`cannot use the database ${url}: ${error.message}`)),
        DatabaseTooNew: (error) => Effect.fail(userError(`cannot use the database ${url}: ${error.message}`))
      })
    ))

/** Runs a `users`/`tokens` command where `storeFlags` say: the database of `--database-url`, else the data folder's. */
export const withStore = (place: StorePlace) =>
<A, R>(command: Effect.Effect<A, CliError.UserError, R>): Effect.Effect<A, CliError.UserError, Exclude<R, TokenGrants | Users | Tokens>> =>
  Option.match(place.databaseUrl, {
    onNone: () => onDataFolder(place.data)(command),
    onSome: (url) => onDatabase(Redacted.value(url), place.databasePasswordFile)(command)
  })

/** A failure the operator fixes (no such user, bad scope…): one line on stderr, exit 1. */
export const userError = (message: string) => new CliError.UserError({ userMessage: message, cause: message })

/** Every typed failure of these commands becomes that one line. */
export const asUserError = <A, R>(effect: Effect.Effect<A, { readonly message: string }, R>) =>
  Effect.mapError(effect, (error) => userError(error.message))
