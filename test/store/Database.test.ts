import { closeSync, existsSync, openSync, writeSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Data, Deferred, Effect, Fiber, Option } from "effect"
import { setTimeout as sleep } from "node:timers/promises"
import { Database, type DatabaseShape, foreignWriteLagMs } from "../../src/store/Database.ts"
import { canLockExclusively, peek, session, tempDir } from "./storeSession.ts"

class Refused extends Data.TaggedError("Refused")<{}> {}

const insert = (db: DatabaseShape, id: string, tag = "t") =>
  db.run("INSERT INTO tags (owner_kind, owner_id, tag) VALUES ('service', ?, ?)", [id, tag])

const owners = (db: DatabaseShape) =>
  Effect.map(
    db.query<{ readonly owner_id: string }>("SELECT owner_id FROM tags ORDER BY owner_id"),
    (rows) => rows.map((row) => row.owner_id)
  )

/** Overwrites the head of every page of `table` and its indexes in the folder's gateway.db, behind the store's back. */
const damageTable = (dataDir: string, table: string) =>
  Effect.flatMap(
    peek(dataDir, (db) => ({
      roots: db.prepare("SELECT rootpage FROM sqlite_schema WHERE tbl_name = ?").pluck().all(table).map(Number),
      pageSize: Number(db.pragma("page_size", { simple: true }))
    })),
    ({ roots, pageSize }) =>
      Effect.sync(() => {
        const fd = openSync(join(dataDir, "gateway.db"), "r+")
        try {
          // Pages are counted from 1.
          for (const page of roots) writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, (page - 1) * pageSize)
        } finally {
          closeSync(fd)
        }
      })
  )

const insertUser = "INSERT INTO users (username, email, password_hash, created_at) VALUES (?, '', 'scrypt$x', 0)"

/** The generation once writes of other processes have had time to show (`foreignWriteLagMs`, in real time). */
const waitedGeneration = (db: DatabaseShape) =>
  Effect.andThen(Effect.promise(() => sleep(foreignWriteLagMs + 1)), Effect.sync(db.generation))

describe("Database", () => {
  it.effect("creates the data folder and gateway.db, in WAL mode with foreign keys on", () =>
    Effect.gen(function*() {
      const dataDir = join(yield* tempDir, "not", "yet", "there")
      const settings = yield* session(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          const [journal] = yield* db.query<{ readonly journal_mode: string }>("PRAGMA journal_mode")
          const [keys] = yield* db.query<{ readonly foreign_keys: number }>("PRAGMA foreign_keys")
          return { file: db.file, journal: journal?.journal_mode, foreignKeys: keys?.foreign_keys }
        })
      )
      assert.deepStrictEqual(settings, { file: join(dataDir, "gateway.db"), journal: "wal", foreignKeys: 1 })
      assert.isTrue(existsSync(join(dataDir, "gateway.db")))
    }))

  it.effect("closes the file when its scope closes", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const whileOpen = yield* session(
        dataDir,
        Effect.gen(function*() {
          yield* insert(yield* Database, "a")
          return { locked: !(yield* canLockExclusively(dataDir)), wal: existsSync(join(dataDir, "gateway.db-wal")) }
        })
      )
      assert.deepStrictEqual(whileOpen, { locked: true, wal: true })
      // The last connection to close checkpoints and deletes the WAL; then another process may take the file.
      assert.isFalse(existsSync(join(dataDir, "gateway.db-wal")))
      assert.isTrue(yield* canLockExclusively(dataDir))
    }))

  it.effect("fails with DatabaseError, not a throw, when used after it closed", () =>
    Effect.gen(function*() {
      const db = yield* session(yield* tempDir, Effect.service(Database))
      const error = yield* Effect.flip(insert(db, "a"))
      assert.strictEqual(error._tag, "DatabaseError")
      assert.include(error.message, "not open")
    }))

  it.effect("reports a failed statement in readable words, with SQLite's code", () =>
    Effect.gen(function*() {
      const error = yield* session(
        yield* tempDir,
        Effect.flatMap(Effect.service(Database), (db) => Effect.flip(db.run("INSERT INTO nowhere VALUES (1)")))
      )
      assert.strictEqual(error.message, "INSERT INTO nowhere VALUES (1) failed: no such table: nowhere")
      assert.strictEqual(error.code, "SQLITE_ERROR")
    }))

  describe("transaction", () => {
    it.effect("commits everything when the work succeeds", () =>
      Effect.gen(function*() {
        const dataDir = yield* tempDir
        yield* session(dataDir, Effect.flatMap(Effect.service(Database), (db) => db.transaction(Effect.all([insert(db, "a"), insert(db, "b")]))))
        const after = yield* session(dataDir, Effect.flatMap(Effect.service(Database), owners))
        assert.deepStrictEqual(after, ["a", "b"])
      }))

    it.effect("writes nothing when a statement fails midway", () =>
      Effect.gen(function*() {
        const dataDir = yield* tempDir
        const error = yield* session(
          dataDir,
          Effect.gen(function*() {
            const db = yield* Database
            return yield* Effect.flip(db.transaction(Effect.gen(function*() {
              yield* insert(db, "a")
              yield* insert(db, "b")
              yield* insert(db, "c", "") // the schema refuses empty tags
              yield* insert(db, "d")
            })))
          })
        )
        assert.strictEqual(error.code, "SQLITE_CONSTRAINT_CHECK")
        // Read after a restart: what is on disk, not what the connection remembers.
        assert.deepStrictEqual(yield* session(dataDir, Effect.flatMap(Effect.service(Database), owners)), [])
      }))

    it.effect("writes nothing when the work fails with its own error, and passes that error on", () =>
      Effect.gen(function*() {
        const dataDir = yield* tempDir
        const result = yield* session(
          dataDir,
          Effect.gen(function*() {
            const db = yield* Database
            const error = yield* Effect.flip(
              db.transaction(Effect.andThen(insert(db, "a"), Effect.fail(new Refused())))
            )
            return { error: error._tag, owners: yield* owners(db) }
          })
        )
        assert.deepStrictEqual(result, { error: "Refused", owners: [] })
      }))

    it.effect("writes nothing when the work is interrupted, and the connection stays usable", () =>
      Effect.gen(function*() {
        const dataDir = yield* tempDir
        const after = yield* session(
          dataDir,
          Effect.gen(function*() {
            const db = yield* Database
            const started = yield* Deferred.make<void>()
            const fiber = yield* Effect.forkChild(db.transaction(Effect.gen(function*() {
              yield* insert(db, "a")
              yield* Deferred.succeed(started, undefined)
              return yield* Effect.never
            })))
            yield* Deferred.await(started)
            yield* Fiber.interrupt(fiber)
            yield* db.transaction(insert(db, "b"))
            return yield* owners(db)
          })
        )
        assert.deepStrictEqual(after, ["b"])
      }))

    it.effect("a failed nested transaction undoes only its own part", () =>
      Effect.gen(function*() {
        const dataDir = yield* tempDir
        yield* session(
          dataDir,
          Effect.gen(function*() {
            const db = yield* Database
            yield* db.transaction(Effect.gen(function*() {
              yield* insert(db, "outer")
              yield* Effect.ignore(db.transaction(Effect.andThen(insert(db, "inner"), Effect.fail(new Refused()))))
              yield* db.transaction(insert(db, "second-inner"))
            }))
          })
        )
        assert.deepStrictEqual(yield* session(dataDir, Effect.flatMap(Effect.service(Database), owners)), [
          "outer",
          "second-inner"
        ])
      }))

    it.live("statements of other fibers wait for an open transaction instead of joining it", () =>
      Effect.gen(function*() {
        const dataDir = yield* tempDir
        const result = yield* session(
          dataDir,
          Effect.gen(function*() {
            const db = yield* Database
            const opened = yield* Deferred.make<void>()
            const release = yield* Deferred.make<void>()
            const failing = yield* Effect.forkChild(Effect.flip(db.transaction(Effect.gen(function*() {
              yield* insert(db, "inside")
              yield* Deferred.succeed(opened, undefined)
              yield* Deferred.await(release)
              return yield* Effect.fail(new Refused())
            }))))
            yield* Deferred.await(opened)
            const outsider = yield* Effect.forkChild(insert(db, "outside"))
            yield* Effect.sleep("20 millis")
            const waited = outsider.pollUnsafe() === undefined
            yield* Deferred.succeed(release, undefined)
            yield* Fiber.join(failing)
            yield* Fiber.join(outsider)
            return { waited, owners: yield* owners(db) }
          })
        )
        // Had it joined the transaction, the rollback would have taken "outside" with it.
        assert.deepStrictEqual(result, { waited: true, owners: ["outside"] })
      }))
  })

  it.effect("refuses to open a database whose pages are damaged, with what PRAGMA quick_check found", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      yield* session(dataDir, Effect.void)
      yield* damageTable(dataDir, "users")
      const error = yield* Effect.flip(session(dataDir, Effect.void))
      assert.strictEqual(error._tag, "DatabaseError")
      assert.match(
        error.message,
        /^checking \S+gateway\.db failed: its pages are damaged \(.+\): restore it from a backup, or move it away to start afresh$/
      )
    }))

  describe("trouble", () => {
    it.effect("is none while all is well; a write refused as read-only sets it, and a write that succeeds clears it", () =>
      Effect.flatMap(tempDir, (dataDir) => session(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          assert.deepStrictEqual(yield* db.trouble(), Option.none())
          yield* db.exec("PRAGMA query_only = ON")
          const refused = yield* Effect.flip(insert(db, "a"))
          assert.strictEqual(refused.code, "SQLITE_READONLY")
          assert.deepStrictEqual(yield* db.trouble(), Option.some(`the database ${db.file} cannot be written: attempt to write a readonly database`))
          yield* owners(db)
          assert.isTrue(Option.isSome(yield* db.trouble()))
          yield* db.exec("PRAGMA query_only = OFF")
          yield* insert(db, "a")
          assert.deepStrictEqual(yield* db.trouble(), Option.none())
        })
      )))

    it.effect("says the file is damaged once a page cannot be read, and no later success clears it", () =>
      Effect.flatMap(tempDir, (dataDir) => session(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          yield* db.runMany(
            "INSERT INTO tags (owner_kind, owner_id, tag) VALUES ('service', ?, 't')",
            Array.from({ length: 2_000 }, (_, i) => [`service:number-${i}@test`])
          )
          // Every page in the file itself, none in the WAL or in memory: the next read goes to the disk.
          yield* db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
          yield* damageTable(dataDir, "tags")
          // Another process's commit: this connection drops the pages it holds in memory, and reads again.
          yield* peek(dataDir, (other) => other.prepare(insertUser).run("someone else"))
          const failed = yield* Effect.flip(owners(db))
          assert.strictEqual(failed.code, "SQLITE_CORRUPT")
          const damaged = Option.some(`the database ${db.file} is damaged: database disk image is malformed`)
          assert.deepStrictEqual(yield* db.trouble(), damaged)
          yield* db.run(insertUser, ["someone"])
          assert.deepStrictEqual(yield* db.trouble(), damaged)
        })
      )))
  })

  describe("generation", () => {
    it.effect("stays while nothing is written, and moves at once with a write of this connection", () =>
      Effect.flatMap(tempDir, (dataDir) => session(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          const first = db.generation()
          yield* owners(db)
          assert.strictEqual(yield* waitedGeneration(db), first)
          yield* insert(db, "a")
          const second = db.generation()
          assert.notStrictEqual(second, first)
          yield* Effect.flip(db.transaction(Effect.andThen(insert(db, "b"), Effect.fail(new Refused()))))
          assert.notStrictEqual(db.generation(), second)
        })
      )))

    it.effect("moves when another process commits (here, another connection to the file)", () =>
      Effect.gen(function*() {
        const dataDir = yield* tempDir
        yield* session(
          dataDir,
          Effect.gen(function*() {
            const db = yield* Database
            const before = yield* waitedGeneration(db)
            yield* peek(dataDir, (other) => other.prepare("INSERT INTO tags (owner_kind, owner_id, tag) VALUES ('service', 'x', 't')").run())
            assert.notStrictEqual(yield* waitedGeneration(db), before)
          })
        )
      }))
  })
})
