import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { HealthConditions } from "../gateway/HealthConditions.ts"
import { PgChangeFeed } from "./PgChangeFeed.ts"
import { asStoreError, PgDatabase, type PgDatabaseOptions } from "./PgDatabase.ts"
import { databasePassword } from "./PgPassword.ts"
import { PgLoginFailures } from "./PgLoginFailures.ts"
import { PgTagStore } from "./PgTagStore.ts"
import { PgTokenCreations } from "./PgTokenCreations.ts"
import { PgTokenStore } from "./PgTokenStore.ts"
import { PgUserStore } from "./PgUserStore.ts"

/**
 * `/health` says so when the database cannot be reached now (the server down, the network cut, the
 * database closed to connections): asked each time `/health` is, with one short query. It takes this
 * gateway out (503): it can check no token and keep no tag, while another replica may reach the
 * database, so a load balancer sends its requests there (docs/replicas.md).
 */
const databaseHealth = Layer.effectDiscard(Effect.gen(function*() {
  const { add } = yield* HealthConditions
  const { sql, name } = yield* PgDatabase
  const reached = sql`SELECT 1`.pipe(
      Effect.mapError(asStoreError("SELECT 1")),
      Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.fail("no answer within 2 s") }),
      Effect.as(Option.none<string>()),
    Effect.catch((error) => Effect.succeed(Option.some(`the database ${name} cannot be reached: ${typeof error === "string" ? error : error.reason}`)))
  )
  yield* add(() => reached, "out")
}))

const stores = Layer.mergeAll(
  PgTagStore.pipe(Layer.provide(PgChangeFeed.layer)),
  PgUserStore,
  PgTokenStore,
  PgLoginFailures,
  PgTokenCreations,
  databaseHealth
)

/**
 * Every store the gateway needs, in one PostgreSQL database (`--database-url`): the core's TagStore and
 * auth's UserStore and TokenStore, and the counts replicas share (LoginFailures, TokenCreations). Loaded only when asked for (src/main.ts imports it on demand), so that
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

/** The users and tokens alone, on the database of `--database-url`: what `gateway users` and `gateway tokens` work on. */
export const authLayerFor = (options: PgStoreOptions) => Layer.mergeAll(PgUserStore, PgTokenStore).pipe(Layer.provide(databaseFor(options)))
