import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Logger, Option, Redacted, Result, Schedule, Stream } from "effect"
import { LoginFailures } from "../../src/auth/LoginFailures.ts"
import { TokenCreations } from "../../src/auth/TokenCreations.ts"
import { TokenStore } from "../../src/auth/TokenStore.ts"
import { UserStore } from "../../src/auth/UserStore.ts"
import { HealthConditions } from "../../src/gateway/HealthConditions.ts"
import { type TagFeedItem, TagStore } from "../../src/gateway/TagStore.ts"
import * as PgStore from "../../src/store/PgStore.ts"
import { authStoreContract } from "../auth/AuthStoreContract.ts"
import { loginFailuresContract } from "../auth/LoginFailuresContract.ts"
import { tokenCreationsContract } from "../auth/TokenCreationsContract.ts"
import { tagStoreContract } from "../gateway/TagStoreContract.ts"
import { supportedVersion } from "../../src/store/PgMigrations.ts"
import { startCuttableProxy } from "../support/cuttableProxy.ts"
import { type Postgres, startPostgres } from "../support/postgres.ts"

let postgres: Postgres
/** A database the stores migrated, which the contracts' databases are copies of. */
let migrated: string
/** The schema versions this gateway records, and one a newer gateway would. */
const everyVersion = Array.from({ length: supportedVersion }, (_, index) => String(index + 1))
const future = supportedVersion + 1
beforeAll(async () => {
  postgres = await startPostgres()
  migrated = await postgres.createDatabase()
  await Effect.runPromise(Effect.provide(Effect.void, Layer.fresh(storesOn(migrated))))
})
afterAll(() => postgres.stop())

/** The stores of a gateway on `database`; each run opens a pool anew, so two runs in a row are a restart. */
const storesOn = (database: string) =>
  PgStore.layer({ url: postgres.url(database), password: Option.some(Redacted.make(postgres.password)) }).pipe(
    Layer.provideMerge(HealthConditions.layer)
  )

/**
 * Stores on a database of their own, already migrated: the contracts are about the stores, and a copy
 * costs less than migrating anew for each test (the migrations are tested below, on empty databases).
 */
const fresh = Effect.map(
  Effect.promise(() => postgres.createDatabase(migrated)),
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
      postgres.query(database, `INSERT INTO effect_sql_migrations (migration_id, name) VALUES (${future}, 'from_the_future')`)
      const error = yield* Effect.flip(Effect.provide(Effect.void, Layer.fresh(storesOn(database))))
      assert.strictEqual(
        error.message,
        `${postgres.url(database)} has schema version ${future}, but this gateway knows versions up to ${supportedVersion}: ` +
          "a newer gateway wrote it. Run that newer gateway, or give this one another database."
      )
      assert.deepStrictEqual(postgres.query(database, "SELECT migration_id FROM effect_sql_migrations ORDER BY 1"), [...everyVersion, String(future)])
    }))

  it.effect("tells /health while the database cannot be reached, as taking the gateway out, and no longer once it can", () =>
    Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      const closed = (allowed: boolean) => postgres.query("postgres", `ALTER DATABASE ${database} ALLOW_CONNECTIONS ${allowed}`)
      yield* Effect.provide(
        Effect.gen(function*() {
          const health = yield* HealthConditions
          assert.deepStrictEqual(yield* health.failing(), [])
          closed(false)
          postgres.query("postgres", `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`)
          const [failing, ...more] = yield* health.failing()
          assert.match(failing?.reason ?? "", new RegExp(`^the database ${postgres.url(database)} cannot be reached: `))
          // It takes the gateway out: another replica may reach the database.
          assert.strictEqual(failing?.impact, "out")
          assert.deepStrictEqual(more, [])
          closed(true)
          assert.deepStrictEqual(yield* health.failing(), [])
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
      assert.deepStrictEqual(postgres.query(database, "SELECT migration_id FROM effect_sql_migrations ORDER BY 1"), everyVersion)
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

/** The stores of one gateway on `database`, open for the test's scope: one replica. */
const replicaOn = (database: string) => Effect.map(Layer.build(Layer.fresh(storesOn(database))), (stores) => ({
  tags: Context.get(stores, TagStore),
  users: Context.get(stores, UserStore),
  tokens: Context.get(stores, TokenStore)
}))

/** The first `n` items of a change feed, or what came within `ms` if fewer. */
const firstItems = (feed: Stream.Stream<TagFeedItem>, n: number, ms = 2_000) =>
  Effect.map(Stream.runCollect(Stream.take(feed, n).pipe(Stream.interruptWhen(Effect.sleep(ms)))), (items) => [...items])

describe("PgStore with several gateways on one database (LISTEN/NOTIFY)", () => {
  it.live("gives another gateway's tag calls on the change feed, as asked and in the order kept, and none of its own", () =>
    Effect.scoped(Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      const [a, b] = [yield* replicaOn(database), yield* replicaOn(database)]
      const [toldA, toldB] = [yield* a.tags.changes, yield* b.tags.changes]
      yield* a.tags.add("service", ["porch-light", "hall"], ["outside"])
      yield* a.tags.remove("channel", ["hall/on"], ["never-added"])
      assert.deepStrictEqual(yield* firstItems(toldB, 2), [
        { ownerKind: "service", ids: ["porch-light", "hall"], tags: ["outside"], added: true },
        { ownerKind: "channel", ids: ["hall/on"], tags: ["never-added"], added: false }
      ])
      assert.deepStrictEqual(yield* firstItems(toldA, 1, 300), [])
    })))

  it.live("tells a call too large for one notice as a reload", () =>
    Effect.scoped(Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      const [a, b] = [yield* replicaOn(database), yield* replicaOn(database)]
      const toldB = yield* b.tags.changes
      const ids = Array.from({ length: 1_000 }, (_, i) => `service-${i}`)
      assert.strictEqual(yield* a.tags.add("service", ids, ["many"]), 1_000)
      assert.deepStrictEqual(yield* firstItems(toldB, 1), [{ reload: true }])
    })))

  /** Two gateways on a fresh database, and a token of a user "ann" inserted through the first. */
  const twoReplicasWithAToken = Effect.gen(function*() {
    const database = yield* Effect.promise(() => postgres.createDatabase())
    const [a, b] = [yield* replicaOn(database), yield* replicaOn(database)]
    const user = yield* Effect.flatMap(a.users.insert({ username: "ann", email: "", passwordHash: "scrypt$x", createdAt: 0 }), Effect.fromOption)
    const id = yield* a.tokens.insert({ tokenHash: "a".repeat(64), userId: user.id, kind: "api", label: "", scope: null, createdAt: 0, expiresAt: null, createdBy: null })
    return { database, a, b, id }
  })

  it.live("replaces every gateway's token generation when a token is revoked or a user removed, by whoever", () =>
    Effect.scoped(Effect.gen(function*() {
      const { database, a, b, id } = yield* twoReplicasWithAToken
      /** Whether b's generation is replaced within a second of `change`. */
      const replacedBy = (change: Effect.Effect<unknown, unknown>) =>
        Effect.gen(function*() {
          const before = b.tokens.generation()
          yield* Effect.orDie(change)
          return yield* Effect.sync(b.tokens.generation).pipe(
            Effect.repeat({ until: (now) => now !== before, schedule: Schedule.spaced("10 millis") }),
            Effect.timeoutOption("1 second"),
            Effect.map(Option.isSome)
          )
        })
      assert.isFalse(yield* replacedBy(a.tokens.touch(id, 1)), "a token's last use changes nothing others cache")
      assert.isTrue(yield* replacedBy(a.tokens.revoke(id, 2)))
      assert.isTrue(yield* replacedBy(Effect.sync(() => postgres.query(database, "UPDATE users SET password_hash = 'scrypt$y'"))))
      assert.isTrue(yield* replacedBy(a.users.remove("ann")))
    })))

  it.live("tells a waiter of another replica's revocation when its notice comes (what closes the token's watch sockets at once)", () =>
    Effect.scoped(Effect.gen(function*() {
      const { a, b, id } = yield* twoReplicasWithAToken
      const waiting = yield* Effect.forkChild(b.tokens.changed)
      // Nothing changed yet: the waiter still waits.
      assert.isUndefined(yield* Effect.as(Effect.sleep("200 millis"), waiting.pollUnsafe()))
      yield* a.tokens.revoke(id, 2)
      // A wait for the notice, not a timing of it (replicaChanges bounds that): without one it never ends.
      assert.isTrue(Option.isSome(yield* Effect.timeoutOption(Fiber.join(waiting), "10 seconds")))
    })))

  it.live("notices its listening connection killed, listens again, and then reloads what it may have missed", () =>
    Effect.scoped(Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      const logged: Array<string> = []
      const b = yield* replicaOn(database).pipe(
        Effect.provide(Logger.layer([Logger.make(({ logLevel, message }) => logged.push(`${logLevel} ${[message].flat().join(" ")}`))]))
      )
      const toldB = yield* b.tags.changes
      const before = b.tokens.generation()
      const killed = postgres.query(
        database,
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND query LIKE 'LISTEN%'`
      )
      assert.deepStrictEqual(killed, ["t"])
      assert.deepStrictEqual(yield* firstItems(toldB, 1, 5_000), [{ reload: true }])
      assert.notStrictEqual(b.tokens.generation(), before)
      assert.strictEqual(logged.length, 1)
      assert.match(logged[0] ?? "", /^Warn the change feed of the database was lost \(LISTEN home_gateway failed: .*\); listening again$/)
    })))

  it.live("notices a listening connection cut silently by its keep-alive, within 5 s, and listens again", () =>
    Effect.scoped(Effect.gen(function*() {
      const database = yield* Effect.promise(() => postgres.createDatabase())
      const proxy = yield* Effect.acquireRelease(Effect.promise(() => startCuttableProxy(postgres.port)), (open) => Effect.promise(() => open.close()))
      const logged: Array<string> = []
      const throughProxy = PgStore.layer({
        url: postgres.url(database).replace(`:${postgres.port}/`, `:${proxy.port}/`),
        password: Option.some(Redacted.make(postgres.password))
      }).pipe(Layer.provideMerge(HealthConditions.layer))
      const b = yield* Effect.map(Layer.build(throughProxy), (stores) => Context.get(stores, TagStore)).pipe(
        Effect.provide(Logger.layer([Logger.make(({ message }) => logged.push([message].flat().join(" ")))]))
      )
      const a = yield* replicaOn(database)
      const toldB = yield* b.changes
      proxy.cut()
      const since = Date.now()
      assert.deepStrictEqual(yield* firstItems(toldB, 1, 8_000), [{ reload: true }])
      assert.isBelow(Date.now() - since, 5_000)
      assert.match(logged[0] ?? "", /no keep-alive came back within 3000 ms/)
      yield* a.tags.add("channel", ["after-the-cut"], ["heard"])
      assert.deepStrictEqual(yield* firstItems(toldB, 1), [{ ownerKind: "channel", ids: ["after-the-cut"], tags: ["heard"], added: true }])
    })))
})
