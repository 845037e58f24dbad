import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import type { TokenStore } from "../../src/auth/TokenStore.ts"
import { UserStore } from "../../src/auth/UserStore.ts"
import { HealthConditions } from "../../src/gateway/HealthConditions.ts"
import type { TagStore } from "../../src/gateway/TagStore.ts"
import * as PgStore from "../../src/store/PgStore.ts"
import { authStoreContract } from "../auth/AuthStoreContract.ts"
import { tagStoreContract } from "../gateway/TagStoreContract.ts"
import { type Postgres, startPostgres } from "../support/postgres.ts"

let postgres: Postgres
beforeAll(async () => {
  postgres = await startPostgres()
})
afterAll(() => postgres.stop())

/** The stores of a gateway on `database`; each run opens a pool anew, so two runs in a row are a restart. */
const storesOn = (database: string) =>
  PgStore.layer({ url: postgres.url(database), password: Option.some(Redacted.make(postgres.password)) }).pipe(
    Layer.provideMerge(HealthConditions.layer)
  )

/** Stores on a database of their own. */
const fresh = Effect.map(
  Effect.promise(() => postgres.createDatabase()),
  (database) => <A, E>(effect: Effect.Effect<A, E, TagStore | UserStore | TokenStore>) => Effect.provide(effect, Layer.fresh(storesOn(database)))
)

tagStoreContract("PgTagStore", fresh, { concurrent: true })
authStoreContract("PgUserStore and PgTokenStore", fresh, { concurrent: true })

describe("PgStore", () => {
  it.effect("refuses a database a newer gateway migrated, in one line, and leaves it untouched", () =>
    Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      yield* Effect.provide(Effect.void, Layer.fresh(storesOn(database)))
      postgres.query(database, "INSERT INTO effect_sql_migrations (migration_id, name) VALUES (2, 'from_the_future')")
      const error = yield* Effect.flip(Effect.provide(Effect.void, Layer.fresh(storesOn(database))))
      assert.strictEqual(
        error.message,
        `${postgres.url(database)} has schema version 2, but this gateway knows versions up to 1: ` +
          "a newer gateway wrote it. Run that newer gateway, or give this one another database."
      )
      assert.deepStrictEqual(postgres.query(database, "SELECT migration_id FROM effect_sql_migrations ORDER BY 1"), ["1", "2"])
    }))

  it.effect("tells /health while the database cannot be reached, as taking the gateway out, and no longer once it can", () =>
    Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      const closed = (allowed: boolean) => postgres.query("postgres", `ALTER DATABASE ${database} ALLOW_CONNECTIONS ${allowed}`)
      yield* Effect.provide(
        Effect.gen(function*() {
          const health = yield* HealthConditions
          assert.deepStrictEqual(yield* health.failing, [])
          closed(false)
          postgres.query("postgres", `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`)
          const [failing, ...more] = yield* health.failing
          assert.match(failing?.reason ?? "", new RegExp(`^the database ${postgres.url(database)} cannot be reached: `))
          // It takes the gateway out: another replica may reach the database.
          assert.strictEqual(failing?.impact, "out")
          assert.deepStrictEqual(more, [])
          closed(true)
          assert.deepStrictEqual(yield* health.failing, [])
        }),
        Layer.fresh(storesOn(database))
      )
    }))

  it.effect("migrates once when several gateways open an empty database at once: the others wait, then serve the schema", () =>
    Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      const counts = yield* Effect.forEach(
        Array.from({ length: 4 }, () => Layer.fresh(storesOn(database))),
        (stores) => Effect.provide(Effect.flatMap(Effect.service(UserStore), (users) => users.count), stores),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(counts, [0, 0, 0, 0])
      assert.deepStrictEqual(postgres.query(database, "SELECT migration_id FROM effect_sql_migrations"), ["1"])
    }))
})
