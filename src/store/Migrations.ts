import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type { DatabaseShape } from "./Database.ts"

/** One step of the schema. Its version is the `PRAGMA user_version` the database has once it ran. */
export interface Migration {
  readonly version: number
  /** What it brings, for the log. */
  readonly name: string
  /** The SQL script; it runs in one transaction together with the version bump. */
  readonly sql: string
}

/** The schema, step by step. Append a step to change it; never edit a released one. */
export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "tags on services and channels",
    // Tags belong to ids, not to devices: a device that comes back with the same id gets its tags back.
    // WITHOUT ROWID: the key is the row; the index by tag then holds the whole row ("who carries tag T").
    sql: `
      CREATE TABLE tags (
        owner_kind TEXT NOT NULL CHECK (owner_kind IN ('service', 'channel')),
        owner_id   TEXT NOT NULL CHECK (owner_id <> ''),
        tag        TEXT NOT NULL CHECK (tag <> ''),
        PRIMARY KEY (owner_kind, owner_id, tag)
      ) WITHOUT ROWID;
      CREATE INDEX tags_by_tag ON tags (tag, owner_kind);
    `
  },
  {
    version: 2,
    name: "users and tokens",
    // Only hashes are stored: the scrypt hash of a password (with its salt and parameters), the SHA-256
    // of a token. A token is found by its hash; times are milliseconds since the epoch.
    sql: `
      CREATE TABLE users (
        id            INTEGER PRIMARY KEY,
        username      TEXT NOT NULL UNIQUE CHECK (username <> ''),
        email         TEXT NOT NULL,
        password_hash TEXT NOT NULL CHECK (password_hash LIKE 'scrypt$%'),
        created_at    INTEGER NOT NULL
      );
      CREATE TABLE tokens (
        id           INTEGER PRIMARY KEY,
        token_hash   TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
        user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind         TEXT NOT NULL CHECK (kind IN ('session', 'api')),
        label        TEXT NOT NULL DEFAULT '',
        scope        TEXT,
        created_at   INTEGER NOT NULL,
        expires_at   INTEGER,
        revoked_at   INTEGER,
        last_used_at INTEGER
      );
      CREATE INDEX tokens_by_user ON tokens (user_id);
    `
  },
  {
    version: 3,
    name: "the token that created each token",
    // Revoking a token revokes those it created, transitively: found by their creator. Tokens kept before
    // have none (NULL), as have those of the command line and logins. A token is removed only with its
    // user, and so are those it created (same user); SET NULL keeps the key valid whatever the order.
    sql: `
      ALTER TABLE tokens ADD COLUMN created_by INTEGER REFERENCES tokens (id) ON DELETE SET NULL;
      CREATE INDEX tokens_by_creator ON tokens (created_by) WHERE created_by IS NOT NULL;
    `
  },
  {
    version: 4,
    name: "comparison tokens",
    // SQLite changes a CHECK only by rebuilding the table: copied whole, ids kept, then renamed into place
    // (the rename points the new table's reference to its creator at itself). Nothing else refers to tokens.
    sql: `
      CREATE TABLE tokens_v4 (
        id           INTEGER PRIMARY KEY,
        token_hash   TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
        user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind         TEXT NOT NULL CHECK (kind IN ('session', 'api', 'comparison')),
        label        TEXT NOT NULL DEFAULT '',
        scope        TEXT,
        created_at   INTEGER NOT NULL,
        expires_at   INTEGER,
        revoked_at   INTEGER,
        last_used_at INTEGER,
        created_by   INTEGER REFERENCES tokens_v4 (id) ON DELETE SET NULL
      );
      INSERT INTO tokens_v4 (id, token_hash, user_id, kind, label, scope, created_at, expires_at, revoked_at, last_used_at, created_by)
        SELECT id, token_hash, user_id, kind, label, scope, created_at, expires_at, revoked_at, last_used_at, created_by FROM tokens;
      DROP TABLE tokens;
      ALTER TABLE tokens_v4 RENAME TO tokens;
      CREATE INDEX tokens_by_user ON tokens (user_id);
      CREATE INDEX tokens_by_creator ON tokens (created_by) WHERE created_by IS NOT NULL;
    `
  }
]

/** The database was written by a newer gateway: this one does not know its schema and must not touch it. */
export class DatabaseTooNew extends Data.TaggedError("DatabaseTooNew")<{
  /** The database file, or PostgreSQL's database (its URL). */
  readonly file: string
  /** Where else the operator may point this gateway: `another data folder`, `another database`. */
  readonly elsewhere: string
  /** The database's `user_version`. */
  readonly found: number
  /** The newest version this code knows. */
  readonly supported: number
}> {
  override get message(): string {
    return `${this.file} has schema version ${this.found}, but this gateway knows versions up to ${this.supported}: ` +
      `a newer gateway wrote it. Run that newer gateway, or give this one ${this.elsewhere}.`
  }
}

const userVersion = (db: DatabaseShape) =>
  Effect.map(db.query<{ readonly user_version: number }>("PRAGMA user_version"), (rows) => rows[0]?.user_version ?? 0)

/**
 * Brings the database to the newest version in `steps`, one transaction per step; a database already
 * there is left alone. A database newer than `steps` is refused with DatabaseTooNew, untouched.
 */
export const migrate = Effect.fn("Migrations.migrate")(function*(
  db: DatabaseShape,
  steps: ReadonlyArray<Migration> = migrations
) {
  const misnumbered = steps.findIndex((step, index) => step.version !== index + 1)
  if (misnumbered !== -1) {
    return yield* Effect.die(new Error(`migration at position ${misnumbered} must have version ${misnumbered + 1}`))
  }
  const supported = steps.length
  const found = yield* userVersion(db)
  if (found > supported) return yield* new DatabaseTooNew({ file: db.file, found, supported, elsewhere: "another data folder" })

  for (const step of steps.slice(found)) {
    const applied = yield* db.transaction(Effect.gen(function*() {
      // Another process may have migrated since we looked: decide again under the write lock.
      if ((yield* userVersion(db)) >= step.version) return false
      yield* db.exec(step.sql)
      // A PRAGMA takes no parameters; the version is a number from the list above.
      yield* db.exec(`PRAGMA user_version = ${step.version}`)
      return true
    }))
    if (applied) yield* Effect.logInfo(`${db.file}: migrated to schema version ${step.version} (${step.name})`)
  }
  return { from: found, to: Math.max(found, supported) }
})
