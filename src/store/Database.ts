import BetterSqlite3 from "better-sqlite3"
import { existsSync, mkdirSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Semaphore from "effect/Semaphore"
import type { HealthCondition } from "../gateway/HealthConditions.ts"
import { type Generation, newGeneration } from "../auth/TokenStore.ts"
import { describeStoreFailure, StoreError, type StoreFailure } from "../domain/StoreError.ts"
import { damageFound, type DatabaseTrouble, isDamage, troubleOf } from "./DatabaseTrouble.ts"
import { migrate } from "./Migrations.ts"

/** What SQLite stores and gives back, as better-sqlite3 maps it to JavaScript. */
export type SqlValue = string | number | bigint | Uint8Array | null

/** Positional (`?`) or named (`@name`, `:name`, `$name`) parameters of one statement. */
export type SqlParams = ReadonlyArray<SqlValue> | Readonly<Record<string, SqlValue>>

export interface RunResult {
  /** Rows inserted, updated or deleted by the statement. */
  readonly changes: number
  readonly lastInsertRowid: number | bigint
}

/**
 * A database operation that did not happen: the reason in SQLite's (or the system's) words, and SQLite's
 * extended result code when SQLite refused (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_CHECK`…). `message` reads
 * e.g. `INSERT INTO tags … failed: CHECK constraint failed: tag <> ''`.
 */
export class DatabaseError extends Data.TaggedError("DatabaseError")<StoreFailure> {
  override get message(): string {
    return describeStoreFailure(this)
  }
}

/** A failure of the database as the stores built on it answer it (they implement interfaces that know no SQLite). */
export const asStoreError = (error: DatabaseError): StoreError =>
  new StoreError({ operation: error.operation, reason: error.reason, code: error.code })

export interface DatabaseShape {
  /** Absolute path of the database file. */
  readonly file: string
  /** Runs one statement that returns no rows. */
  readonly run: (sql: string, params?: SqlParams) => Effect.Effect<RunResult, DatabaseError>
  /**
   * Runs one statement once per parameter set, all in one transaction (all happen or none), with one
   * prepared statement in a plain loop: the way to write thousands of rows. Answers the total `changes`.
   */
  readonly runMany: (sql: string, params: Iterable<SqlParams>) => Effect.Effect<number, DatabaseError>
  /** Rows of one statement. `Row` is the caller's word for the shape of its own SELECT: it is not checked. */
  readonly query: <Row extends object>(sql: string, params?: SqlParams) => Effect.Effect<ReadonlyArray<Row>, DatabaseError>
  /** Runs a script of several statements (migrations). Not cached: meant for one-off SQL. */
  readonly exec: (script: string) => Effect.Effect<void, DatabaseError>
  /**
   * Runs `work` atomically: it commits if `work` succeeds, and rolls back if `work` fails, dies or is
   * interrupted, or if the commit itself fails. Nested calls become savepoints. While a transaction is
   * open, statements of other fibers wait for it, so they cannot slip into it. Fibers forked inside
   * `work` belong to the transaction: do not let them outlive it.
   */
  readonly transaction: <A, E, R>(work: Effect.Effect<A, E, R>) => Effect.Effect<A, E | DatabaseError, R>
  /**
   * The data's generation: a value that is replaced whenever what the database holds may have changed,
   * so that a cache of it stays good exactly while the generation it was filled in is current. A write
   * through this connection replaces it at once; a commit by another process (the CLI beside a running
   * server) is seen through SQLite's `data_version`, asked at most once per `foreignWriteLagMs`. Known at once.
   */
  readonly generation: () => Generation
  /**
   * Why the file cannot be used now, as the last failure that said so told it (read-only, full,
   * damaged…), for `/health`; `None` if none did, or a write succeeded since (damage stays: it is
   * refused at the next start). Known at once (HealthCondition).
   */
  readonly trouble: HealthCondition
}


/**
 * How late, at most, a write by another process shows in `generation`. Asking SQLite takes its
 * shared-memory lock (`fcntl` calls, slow on a VM: 3.5 % of a busy server's CPU when asked every
 * millisecond); every 10 ms is cheap and still imperceptible to a person who revokes a token from the CLI.
 */
export const foreignWriteLagMs = 10

export interface DatabaseOptions {
  /** The data folder (`--data`): the database is its `gateway.db`, created with the folder if need be. */
  readonly dataDir: string
}

/**
 * The gateway's SQLite database (`<dataDir>/gateway.db`), migrated to the schema this code knows.
 * The layer closes the file when its scope closes, which is how SIGTERM ends up closing it.
 */
export class Database extends Context.Service<Database, DatabaseShape>()("app/Database") {
  static readonly layer = ({ dataDir }: DatabaseOptions) => Layer.effect(Database, openDatabase(join(dataDir, "gateway.db")))
}

/**
 * Per fiber, the connections on which it has a transaction open, with their nesting depth. Statements
 * of that fiber on that connection are part of the transaction and must not wait for the lock it holds.
 */
const OpenTransactions = Context.Reference<ReadonlyMap<BetterSqlite3.Database, number>>(
  "app/Database/OpenTransactions",
  { defaultValue: () => new Map() }
)

type Statement = BetterSqlite3.Statement<Array<unknown>, unknown>

const isPositional = (params: SqlParams): params is ReadonlyArray<SqlValue> => Array.isArray(params)

const runStatement = (statement: Statement, params: SqlParams | undefined): BetterSqlite3.RunResult =>
  params === undefined
    ? statement.run()
    : isPositional(params)
    ? statement.run(...params)
    : statement.run(params)

const allRows = (statement: Statement, params: SqlParams | undefined): Array<unknown> =>
  params === undefined
    ? statement.all()
    : isPositional(params)
    ? statement.all(...params)
    : statement.all(params)

/** A statement as it reads in an error message: one line, short. */
const describe = (sql: string): string => {
  const line = sql.replace(/\s+/g, " ").trim()
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}

const toDatabaseError = (operation: string) => (error: unknown): DatabaseError =>
  new DatabaseError({
    operation,
    reason: error instanceof Error ? error.message : String(error),
    code: error instanceof BetterSqlite3.SqliteError ? error.code : undefined
  })

/** better-sqlite3 throws; this is the one place where a throw becomes a typed failure. */
const attempt = <A>(operation: string, f: () => A): Effect.Effect<A, DatabaseError> =>
  Effect.try({ try: f, catch: toDatabaseError(operation) })

/**
 * `PRAGMA quick_check` of every page (a damaged database otherwise opens, and then fails one request
 * in some, or every write): one that fails it is refused, with what SQLite found, in one line.
 */
const checkPages = (file: string, handle: BetterSqlite3.Database) =>
  attempt(`checking ${file}`, () => handle.prepare("PRAGMA quick_check").pluck().all().map(String)).pipe(
    // Some damage stops the check itself.
    Effect.catchIf((error) => isDamage(error.code), (error) => Effect.succeed([error.reason])),
    Effect.flatMap((findings) =>
      Option.match(damageFound(findings), {
        onNone: () => Effect.void,
        onSome: (reason) => Effect.fail(new DatabaseError({ operation: `checking ${file}`, reason, code: "SQLITE_CORRUPT" }))
      })
    )
  )

/** Opens (creating folder and file if needed) and migrates the database at `file`; closes it with the scope. */
const openDatabase = Effect.fn("Database.open")(function*(path: string) {
  const file = resolve(path)
  const handle = yield* Effect.acquireRelease(
    attempt(`opening ${file}`, () => {
      const folder = dirname(file)
      // mkdir's own words for this (EEXIST) read as if the folder were fine.
      if (existsSync(folder) && !statSync(folder).isDirectory()) throw new Error(`${folder} is a file, not a folder`)
      mkdirSync(folder, { recursive: true })
      return new BetterSqlite3(file)
    }),
    (handle) =>
      attempt(`closing ${file}`, () => handle.close()).pipe(
        Effect.ignore({ log: "Error", message: "the database did not close cleanly" })
      )
  )
  const journalMode = yield* attempt(`enabling WAL on ${file}`, () => handle.pragma("journal_mode = WAL", { simple: true }))
  if (journalMode !== "wal") {
    // Some file systems (network shares) cannot do WAL; SQLite then keeps its rollback journal, which is still safe.
    yield* Effect.logWarning(`${file}: SQLite kept journal mode ${String(journalMode)} instead of WAL`)
  }
  // FULL: a tag change a client saw succeed survives a power cut. Writes are rare, so the fsync per commit is cheap.
  yield* attempt("setting synchronous mode", () => handle.pragma("synchronous = FULL"))
  // Per connection, off by default in SQLite.
  yield* attempt("enabling foreign keys", () => handle.pragma("foreign_keys = ON"))

  yield* checkPages(file, handle)

  const database = makeConnection(file, handle)
  const { to } = yield* migrate(database)
  // A write that changes nothing: a database the gateway cannot write (its file mode, a full disk) is
  // known now, for `/health`, rather than at a client's first write.
  yield* database.exec(`PRAGMA user_version = ${to}`).pipe(
    Effect.catch((error) => Effect.logWarning(`${file} cannot be written (${error.reason}): the gateway serves, but changes nothing it stores`))
  )
  return database
})

const makeConnection = (file: string, handle: BetterSqlite3.Database): DatabaseShape => {
  let trouble: Option.Option<DatabaseTrouble> = Option.none()
  // `/health` asks often and the trouble changes rarely: its answer is made when it changes, not per ask.
  let troubleNow: Effect.Effect<Option.Option<string>> = Effect.succeed(Option.none())
  const troubleIs = (found: Option.Option<DatabaseTrouble>) => {
    trouble = found
    troubleNow = Effect.succeed(Option.map(found, ({ reason }) => reason))
  }
  /**
   * `attempt`, remembering what a failure says of the file; a write statement that succeeds (`writes`)
   * clears what does not last.
   */
  const tracked = <A>(operation: string, f: () => A, writes: boolean): Effect.Effect<A, DatabaseError> =>
    Effect.try({
      try: () => {
        const result = f()
        if (writes && Option.isSome(trouble) && !trouble.value.lasting) troubleIs(Option.none())
        return result
      },
      catch: (error) => {
        const failure = toDatabaseError(operation)(error)
        troubleIs(Option.orElse(troubleOf(file, failure), () => trouble))
        return failure
      }
    })

  // One lock per connection: SQLite transactions belong to the connection, not to a fiber.
  const lock = Semaphore.makeUnsafe(1)
  // SQL comes from our code, never from input, so the cache holds a handful of statements.
  const statements = new Map<string, Statement>()
  const prepared = (sql: string): Statement => {
    let statement = statements.get(sql)
    if (statement === undefined) {
      statement = handle.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }

  // Replaced on every write of ours; `data_version` tells us of the others' (it ignores this connection's own).
  let current = newGeneration()
  let dataVersion = 0
  let askedAt = Number.NEGATIVE_INFINITY
  const dataVersionStatement = handle.prepare("PRAGMA data_version").pluck()
  const wrote = () => {
    current = newGeneration()
  }
  const generation = (): Generation => {
    // Date.now: a millisecond is all the lag needs, and performance.now costs a system call on some VMs.
    const now = Date.now()
    if (now - askedAt >= foreignWriteLagMs) {
      askedAt = now
      const version = Number(dataVersionStatement.get())
      if (version !== dataVersion) {
        dataVersion = version
        current = newGeneration()
      }
    }
    return current
  }

  /** Runs `effect` holding the connection, unless this fiber's open transaction already holds it. */
  const exclusive = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(Effect.service(OpenTransactions), (open) => open.has(handle) ? effect : lock.withPermit(effect))

  const run = Effect.fnUntraced(function*(sql: string, params?: SqlParams) {
    return yield* exclusive(tracked(describe(sql), () => {
      wrote()
      return runStatement(prepared(sql), params)
    }, true))
  })

  const query = <Row extends object>(sql: string, params?: SqlParams): Effect.Effect<ReadonlyArray<Row>, DatabaseError> =>
    exclusive(tracked(describe(sql), () => allRows(prepared(sql), params) as Array<Row>, false))

  const exec = Effect.fn("Database.exec")(function*(script: string) {
    yield* exclusive(tracked(describe(script), () => {
      wrote()
      handle.exec(script)
    }, true))
  })

  /** SQL run directly (BEGIN, COMMIT…): never cached, and exempt from the lock, which the caller holds. */
  const control = (sql: string) => tracked(sql, () => {
    wrote()
    handle.exec(sql)
  }, false)

  const atomically = <A, E, R>(
    work: Effect.Effect<A, E, R>,
    sql: { readonly begin: string; readonly commit: string; readonly rollback: string }
  ): Effect.Effect<A, E | DatabaseError, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function*() {
        yield* control(sql.begin)
        const exit = yield* Effect.exit(restore(work))
        if (Exit.isSuccess(exit)) {
          const committed = yield* Effect.exit(control(sql.commit))
          if (Exit.isSuccess(committed)) return exit.value
          yield* undo(sql.rollback)
          return yield* Effect.failCause(committed.cause)
        }
        yield* undo(sql.rollback)
        return yield* exit
      })
    )

  const undo = (rollback: string) =>
    // SQLite ends the transaction itself after some errors (e.g. SQLITE_FULL): then there is nothing to undo.
    // A ROLLBACK refused otherwise would leave the connection in an unknown state: that is a defect.
    handle.inTransaction ? Effect.orDie(control(rollback)) : Effect.void

  const transaction = <A, E, R>(work: Effect.Effect<A, E, R>): Effect.Effect<A, E | DatabaseError, R> =>
    Effect.flatMap(Effect.service(OpenTransactions), (open) => {
      const depth = open.get(handle) ?? 0
      const inside = Effect.provideService(work, OpenTransactions, new Map(open).set(handle, depth + 1))
      if (depth > 0) {
        const savepoint = `nested_${depth}`
        return atomically(inside, {
          begin: `SAVEPOINT ${savepoint}`,
          commit: `RELEASE ${savepoint}`,
          rollback: `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`
        })
      }
      // IMMEDIATE takes the write lock up front: another process cannot make the commit fail half-way with BUSY.
      return lock.withPermit(atomically(inside, { begin: "BEGIN IMMEDIATE", commit: "COMMIT", rollback: "ROLLBACK" }))
    }).pipe(Effect.withSpan("Database.transaction"))

  const runMany = Effect.fn("Database.runMany")(function*(sql: string, params: Iterable<SqlParams>) {
    return yield* transaction(tracked(describe(sql), () => {
      const statement = prepared(sql)
      let changes = 0
      for (const one of params) changes += runStatement(statement, one).changes
      return changes
    }, true))
  })

  return { file, run, runMany, query, exec, transaction, generation, trouble: () => troubleNow }
}
