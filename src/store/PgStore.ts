import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Option from "effect/Option"
import { PgDatabase, type PgDatabaseOptions } from "./PgDatabase.ts"
import { databasePassword } from "./PgPassword.ts"
import { PgTagStore } from "./PgTagStore.ts"
import { PgTokenStore } from "./PgTokenStore.ts"
import { PgUserStore } from "./PgUserStore.ts"

const stores = Layer.mergeAll(PgTagStore, PgUserStore, PgTokenStore)

/**
 * Every store the gateway needs, in one PostgreSQL database (`--database-url`): the core's TagStore and
 * auth's UserStore and TokenStore. Loaded only when asked for (src/main.ts imports it on demand), so that
 * a gateway on SQLite neither loads nor bundles the driver at start-up. The pool closes with the layer.
 */
export const layer = (options: PgDatabaseOptions) => stores.pipe(Layer.provide(PgDatabase.layer(options)))

/** What the command line says of the database: `--database-url` and `--database-password-file`. */
export interface PgStoreOptions {
  readonly url: string
  readonly passwordFile: Option.Option<string>
}

/** The database of `--database-url`, with its password found as src/store/PgPassword.ts says. */
export const databaseFor = ({ url, passwordFile }: PgStoreOptions) =>
  Layer.unwrap(Effect.map(databasePassword(url, passwordFile), (password) => PgDatabase.layer({ url, password })))

/** The stores on the database of `--database-url`. */
export const layerFor = (options: PgStoreOptions) => stores.pipe(Layer.provide(databaseFor(options)))
