import BetterSqlite3 from "better-sqlite3"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { TokenStore } from "../../src/auth/TokenStore.ts"
import { Database } from "../../src/store/Database.ts"
import { migrate, type Migration, migrations } from "../../src/store/Migrations.ts"
import { peek, session, tableNames, tempDir, userVersion } from "./storeSession.ts"

/** A step after the real ones that counts its own runs in a table. */
const counting: Migration = {
  version: migrations.length + 1,
  name: "counts its runs",
  sql: "CREATE TABLE runs (n INTEGER); INSERT INTO runs VALUES (1);"
}

/** A step that fails after doing half its work. */
const failingHalfway: Migration = {
  version: migrations.length + 1,
  name: "fails halfway",
  sql: "CREATE TABLE half (n INTEGER); INSERT INTO nowhere VALUES (1);"
}

describe("Migrations", () => {
  it("are numbered 1, 2, 3… in order", () => {
    assert.deepStrictEqual(migrations.map((m) => m.version), migrations.map((_, i) => i + 1))
  })

  it.effect("bring a new database to the newest version and record it in user_version", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      yield* session(dataDir, Effect.void)
      assert.strictEqual(yield* userVersion(dataDir), migrations.length)
      assert.include(yield* tableNames(dataDir), "tags")
    }))

  it.effect("run each step once: migrating again is a no-op", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const steps = [...migrations, counting]
      const results = yield* session(
        dataDir,
        Effect.flatMap(Effect.service(Database), (db) => Effect.all([migrate(db, steps), migrate(db, steps)]))
      )
      assert.deepStrictEqual(results, [
        { from: migrations.length, to: counting.version },
        { from: counting.version, to: counting.version }
      ])
      assert.strictEqual(yield* peek(dataDir, (db) => db.prepare("SELECT count(*) FROM runs").pluck().get()), 1)
      assert.strictEqual(yield* userVersion(dataDir), counting.version)
    }))

  it.effect("keep the tokens of a version 2 database, each with no creator", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      yield* peek(dataDir, (db) => {
        for (const step of migrations.slice(0, 2)) db.exec(step.sql)
        db.pragma("user_version = 2")
        db.prepare("INSERT INTO users (id, username, email, password_hash, created_at) VALUES (1, 'ann', '', 'scrypt$x', 1)").run()
        db.prepare("INSERT INTO tokens (id, token_hash, user_id, kind, created_at) VALUES (7, ?, 1, 'api', 2)").run("a".repeat(64))
      })
      const kept = yield* session(dataDir, TokenStore.use((tokens) => tokens.byHash("a".repeat(64))))
      assert.deepStrictEqual(Option.map(kept, (t) => [t.id, t.username, t.createdBy]), Option.some([7, "ann", null]))
      assert.strictEqual(yield* userVersion(dataDir), migrations.length)
    }))

  it.effect("keep the tokens of a version 3 database with their creators, and then take comparison tokens", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      yield* peek(dataDir, (db) => {
        for (const step of migrations.slice(0, 3)) db.exec(step.sql)
        db.pragma("user_version = 3")
        db.prepare("INSERT INTO users (id, username, email, password_hash, created_at) VALUES (1, 'ann', '', 'scrypt$x', 1)").run()
        db.prepare("INSERT INTO tokens (id, token_hash, user_id, kind, created_at) VALUES (7, ?, 1, 'session', 2)").run("a".repeat(64))
        db.prepare("INSERT INTO tokens (id, token_hash, user_id, kind, created_at, created_by) VALUES (9, ?, 1, 'api', 3, 7)").run("b".repeat(64))
      })
      const [kept, comparison] = yield* session(dataDir, TokenStore.use((tokens) =>
        Effect.all([
          tokens.byHash("b".repeat(64)),
          tokens.insert({ tokenHash: "c".repeat(64), userId: 1, kind: "comparison", label: "", scope: null, createdAt: 4, expiresAt: 5, createdBy: 7 })
        ])))
      assert.deepStrictEqual(Option.map(kept, (t) => `${t.id} ${t.kind} made by ${t.createdBy}`), Option.some("9 api made by 7"))
      assert.strictEqual(comparison, 10)
      const revoked = yield* session(dataDir, TokenStore.use((tokens) => tokens.revokeWithCreated(7, 6)))
      assert.deepStrictEqual(revoked, [7, 9, 10])
    }))

  it.effect("leave schema and version as they were when a step fails halfway", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const error = yield* session(
        dataDir,
        Effect.flatMap(Effect.service(Database), (db) => Effect.flip(migrate(db, [...migrations, failingHalfway])))
      )
      assert.strictEqual(error._tag, "DatabaseError")
      assert.include(error.message, "no such table: nowhere")
      assert.strictEqual(yield* userVersion(dataDir), migrations.length)
      assert.notInclude(yield* tableNames(dataDir), "half")
    }))

  it.effect("refuse a database written by a newer gateway, with a clear error, and leave it untouched", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const future = migrations.length + 6
      yield* Effect.sync(() => {
        const db = new BetterSqlite3(join(dataDir, "gateway.db"))
        db.pragma(`user_version = ${future}`)
        db.close()
      })
      const error = yield* Effect.flip(session(dataDir, Effect.void))
      assert.strictEqual(error._tag, "DatabaseTooNew")
      assert.strictEqual(
        error.message,
        `${join(dataDir, "gateway.db")} has schema version ${future}, but this gateway knows versions up to ` +
          `${migrations.length}: a newer gateway wrote it. Run that newer gateway, or give this one another data folder.`
      )
      assert.strictEqual(yield* userVersion(dataDir), future)
      assert.deepStrictEqual(yield* tableNames(dataDir), [])
    }))

  it.effect("refuse a database one step ahead, as after a downgrade", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      yield* session(dataDir, Effect.flatMap(Effect.service(Database), (db) => migrate(db, [...migrations, counting])))
      const error = yield* Effect.flip(session(dataDir, Effect.void))
      assert.strictEqual(error._tag, "DatabaseTooNew")
    }))

  it.effect("die on a misnumbered list: that is a bug in the code, not a state of the database", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const exit = yield* Effect.exit(session(
        dataDir,
        Effect.flatMap(Effect.service(Database), (db) => migrate(db, [...migrations, { ...counting, version: 9 }]))
      ))
      assert.isTrue(Exit.hasDies(exit))
      assert.strictEqual(yield* userVersion(dataDir), migrations.length)
    }))
})
