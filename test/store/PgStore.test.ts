import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, Result } from "effect"
import { LoginFailures } from "../../src/auth/LoginFailures.ts"
import { TokenCreations } from "../../src/auth/TokenCreations.ts"
import type { TokenStore } from "../../src/auth/TokenStore.ts"
import { UserStore } from "../../src/auth/UserStore.ts"
import { HealthConditions } from "../../src/gateway/HealthConditions.ts"
import type { TagStore } from "../../src/gateway/TagStore.ts"
import * as PgStore from "../../src/store/PgStore.ts"
import { authStoreContract } from "../auth/AuthStoreContract.ts"
import { loginFailuresContract } from "../auth/LoginFailuresContract.ts"
import { tokenCreationsContract } from "../auth/TokenCreationsContract.ts"
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
  (database) => <A, E>(effect: Effect.Effect<A, E, TagStore | UserStore | TokenStore | LoginFailures | TokenCreations>) =>
    Effect.provide(effect, Layer.fresh(storesOn(database)))
)

tagStoreContract("PgTagStore", fresh, { concurrent: true })
authStoreContract("PgUserStore and PgTokenStore", fresh, { concurrent: true })
loginFailuresContract("PgLoginFailures", fresh, { concurrent: true })
tokenCreationsContract("PgTokenCreations", fresh, { concurrent: true })

describe("PgStore", () => {
  it.effect("refuses a database a newer gateway migrated, in one line, and leaves it untouched", () =>
    Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      yield* Effect.provide(Effect.void, Layer.fresh(storesOn(database)))
      postgres.query(database, "INSERT INTO effect_sql_migrations (migration_id, name) VALUES (4, 'from_the_future')")
      const error = yield* Effect.flip(Effect.provide(Effect.void, Layer.fresh(storesOn(database))))
      assert.strictEqual(
        error.message,
        `${postgres.url(database)} has schema version 4, but this gateway knows versions up to 3: ` +
          "a newer gateway wrote it. Run that newer gateway, or give this one another database."
      )
      assert.deepStrictEqual(postgres.query(database, "SELECT migration_id FROM effect_sql_migrations ORDER BY 1"), ["1", "3", "4"])
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
      assert.deepStrictEqual(postgres.query(database, "SELECT migration_id FROM effect_sql_migrations ORDER BY 1"), ["1", "3"])
    }))

  it.effect("counts the failed logins and token creations of two gateways on one database together", () =>
    Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      const one = Layer.fresh(storesOn(database))
      const gateways = [one, Layer.fresh(storesOn(database))]
      const limits = { pair: 5, user: 100, address: 20 }
      // Each gateway adds two failures and holds places asked for at once: each counts the other's.
      const [first, second] = yield* Effect.forEach(gateways, (stores) =>
        Effect.provide(
          Effect.gen(function*() {
            const failures = yield* LoginFailures
            yield* failures.add("bob", "10.0.0.1", false, 60_000)
            yield* failures.add("bob", "10.0.0.1", false, 60_000)
            const creations = yield* TokenCreations
            return yield* Effect.all(Array.from({ length: 10 }, () => creations.hold("ann", 7, 60_000)), { concurrency: "unbounded" })
          }),
          stores
        ), { concurrency: "unbounded" })
      assert.strictEqual([...(first ?? []), ...(second ?? [])].filter(Result.isSuccess).length, 7)
      const tally = yield* Effect.provide(LoginFailures.use((failures) => failures.tally("bob", "10.0.0.1", limits, 60_000)), one)
      assert.strictEqual(tally.pair.failures, 4)
    }))

  it.live("keeps no failed login nor token creation past the window: the tables do not grow", () =>
    Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      // Long enough for the writes below on a busy machine, short enough to wait for.
      const window = 2_000
      const rows = () => postgres.query(database, "SELECT (SELECT count(*) FROM login_failures) || ' ' || (SELECT count(*) FROM token_creations)")
      yield* Effect.provide(
        Effect.gen(function*() {
          const failures = yield* LoginFailures
          const creations = yield* TokenCreations
          for (const username of ["a", "b", "c"]) {
            yield* failures.add(username, `10.0.0.${username.charCodeAt(0)}`, false, window)
            yield* creations.hold(username, 5, window)
          }
          assert.deepStrictEqual(rows(), ["3 3"])
          yield* Effect.sleep(window + 100)
          // Those of other usernames and addresses, never tried again, are swept by the next write.
          yield* failures.add("d", "10.0.0.9", false, window)
          yield* creations.hold("d", 5, window)
          assert.deepStrictEqual(rows(), ["1 1"])
        }),
        Layer.fresh(storesOn(database))
      )
    }))
})
