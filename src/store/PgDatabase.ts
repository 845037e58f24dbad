import * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Reactivity from "effect/reactivity/Reactivity"
import type { MigrationError } from "effect/sql/Migrator"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { type Generation, newGeneration } from "../auth/TokenStore.ts"
import { StoreError } from "../domain/StoreError.ts"
import { DatabaseTooNew } from "./Migrations.ts"
import { migrate, recordedVersion, supportedVersion } from "./PgMigrations.ts"

export interface PgDatabaseOptions {
  /** `postgres://USER@HOST:PORT/DATABASE`, without a password (`--database-url`). */
  readonly url: string
  /** From `--database-password-file`, `PGPASSWORD` or `.pgpass` (src/store/PgPassword.ts); none: the server asks for none. */
  readonly password: Option.Option<Redacted.Redacted>
}

export interface PgDatabaseShape {
  readonly sql: PgClient.PgClient
  /** The database as messages name it: its URL. */
  readonly name: string
  /**
   * The users' and tokens' generation (TokenStore's): replaced by this process's own writes, and by
   * another process's when the change feed hears of them (src/store/PgChangeFeed.ts). Known at once.
   */
  readonly generation: () => Generation
  /** Replaces the generation: after a write to users or tokens, whether it committed or not, or one heard of. */
  readonly wrote: Effect.Effect<void>
  /** Completes at the next `wrote` (TokenStore's `changed`). */
  readonly changed: Effect.Effect<void>
}

/** What lies under a failure: PostgreSQL's (or the system's) own words and code, when it tells them. */
const underlying = (cause: unknown): { readonly words?: string; readonly code?: string } =>
  cause instanceof Error ? { words: cause.message, ...("code" in cause && typeof cause.code === "string" ? { code: cause.code } : {}) } : {}

/**
 * A failure of PostgreSQL as the stores answer it: the statement's or step's name, the driver's words
 * with PostgreSQL's (`PgConnection: Failed to connect (password authentication failed for user "gw")`),
 * PostgreSQL's SQLSTATE (`23514`) or the system's code (`ECONNREFUSED`), else Effect's reason.
 */
export const asStoreError = (operation: string) => (error: SqlError | MigrationError): StoreError => {
  const { words, code } = underlying(error._tag === "SqlError" ? error.reason.cause : error.cause)
  return new StoreError({
    operation,
    reason: words === undefined || words === error.message ? error.message : `${error.message} (${words})`,
    code: code ?? (error._tag === "SqlError" ? error.reason._tag : error.kind)
  })
}

/** Runs one statement with its parameters on `sql`; a failure is a StoreError named by `operation`. */
export const statementOn = (sql: PgClient.PgClient) => <Row extends object>(operation: string, text: string, params: ReadonlyArray<unknown>) =>
  Effect.mapError(sql.unsafe<Row>(text, params), asStoreError(operation))

/** The query's parameter `$n`, a number of milliseconds, as an interval (to compare with the database's `now()`). */
export const millisecondsAt = (n: number) => `($${n}::float8 * interval '1 millisecond')`

/**
 * Opens a pool on the database and brings it to this gateway's schema; refuses, untouched, a database
 * a newer gateway migrated.
 */
const open = Effect.fn("PgDatabase.open")(function*({ url, password }: PgDatabaseOptions) {
  const sql = yield* PgClient.make({
    url: Redacted.make(url),
    password: Option.getOrUndefined(password),
    applicationName: "home-gateway",
    connectTimeout: "10 seconds"
  }).pipe(Effect.mapError(asStoreError(`connecting to ${url}`)))
  const migrated = Effect.andThen(migrate, recordedVersion).pipe(
    Effect.provideService(SqlClient, sql),
    Effect.mapError(asStoreError(`migrating ${url}`))
  )
  const found = yield* migrated
  if (found > supportedVersion) {
    return yield* new DatabaseTooNew({ file: url, found, supported: supportedVersion, elsewhere: "another database" })
  }
  let current = newGeneration()
  let next = Deferred.makeUnsafe<void>()
  return PgDatabase.of({
    sql,
    name: url,
    generation: () => current,
    wrote: Effect.sync(() => {
      current = newGeneration()
      Deferred.doneUnsafe(next, Effect.void)
      next = Deferred.makeUnsafe<void>()
    }),
    changed: Effect.suspend(() => Deferred.await(next))
  })
})

/** The gateway's PostgreSQL database (`--database-url`), migrated; the pool closes with the layer's scope. */
export class PgDatabase extends Context.Service<PgDatabase, PgDatabaseShape>()("app/PgDatabase") {
  static readonly layer = (options: PgDatabaseOptions) => Layer.effect(PgDatabase, open(options)).pipe(Layer.provide(Reactivity.layer))
}
