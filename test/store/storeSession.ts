import BetterSqlite3 from "better-sqlite3"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { Database } from "../../src/store/Database.ts"
import { SqliteTagStore } from "../../src/store/SqliteTagStore.ts"
import { SqliteTokenStore } from "../../src/store/SqliteTokenStore.ts"
import { SqliteUserStore } from "../../src/store/SqliteUserStore.ts"

/** A fresh folder in the system's temp folder, removed with the scope. */
export const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "gateway-store-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** The stores of a gateway whose data folder is `dataDir`, and their database. */
export const storeAt = (dataDir: string) =>
  Layer.mergeAll(SqliteTagStore, SqliteUserStore, SqliteTokenStore).pipe(
    Layer.provideMerge(Database.layer({ dataDir }))
  )

/**
 * One run of a gateway against `dataDir`: the database opens before `effect` and closes after it, so
 * two sessions in a row are a restart.
 */
export const session = <A, E, R>(dataDir: string, effect: Effect.Effect<A, E, R>) =>
  effect.pipe(Effect.provide(Layer.fresh(storeAt(dataDir))))

/** Looks at the file behind the store's back, with a handle of our own, closed afterwards. */
export const peek = <A>(dataDir: string, f: (db: BetterSqlite3.Database) => A): Effect.Effect<A> =>
  Effect.sync(() => {
    const db = new BetterSqlite3(join(dataDir, "gateway.db"), { timeout: 0 })
    try {
      return f(db)
    } finally {
      db.close()
    }
  })

/** Whether another connection can take the whole file for itself right now (it cannot while the store has it open). */
export const canLockExclusively = (dataDir: string) =>
  peek(dataDir, (db) => {
    try {
      db.pragma("locking_mode = EXCLUSIVE")
      db.exec("BEGIN EXCLUSIVE")
      db.prepare("SELECT count(*) FROM sqlite_schema").get()
      db.exec("COMMIT")
      return true
    } catch {
      return false
    }
  })

export const userVersion = (dataDir: string) =>
  peek(dataDir, (db) => Number(db.pragma("user_version", { simple: true })))

export const tableNames = (dataDir: string) =>
  peek(dataDir, (db) =>
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all().map(String))
