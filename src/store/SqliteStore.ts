import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HealthConditions } from "../gateway/HealthConditions.ts"
import { Database, type DatabaseOptions } from "./Database.ts"
import { SqliteTagStore } from "./SqliteTagStore.ts"
import { SqliteTokenStore } from "./SqliteTokenStore.ts"
import { SqliteUserStore } from "./SqliteUserStore.ts"

/** `/health` says so when the database cannot be written or is damaged. */
const databaseHealth = Layer.effectDiscard(Effect.gen(function*() {
  const { add } = yield* HealthConditions
  yield* add((yield* Database).trouble)
}))

/**
 * Every store the gateway needs, in one SQLite database (`<data>/gateway.db`): the core's TagStore,
 * auth's UserStore and TokenStore, and the database's condition for `/health`. The database closes
 * when the layer's scope does, after everything built on it.
 */
export const layer = (options: DatabaseOptions) =>
  Layer.mergeAll(SqliteTagStore, SqliteUserStore, SqliteTokenStore, databaseHealth).pipe(Layer.provide(Database.layer(options)))
