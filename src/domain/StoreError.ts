import { Data } from "effect"

/**
 * A store (the tags, users and tokens the gateway keeps) could not do what was asked: the one failure
 * the stores the core and auth define may answer, whatever keeps the data. Not the caller's fault: a
 * request that meets it is answered 500. `message` reads e.g. `INSERT INTO tags … failed: disk I/O error`.
 */
export class StoreError extends Data.TaggedError("StoreError")<{
  /** What the store was doing: the statement (shortened) or the step. */
  readonly operation: string
  /** Why, in the words of what keeps the data. */
  readonly reason: string
  /** The keeper's own code for it, if it has one (SQLite's extended result code, e.g. `SQLITE_CONSTRAINT_CHECK`). */
  readonly code?: string | undefined
}> {
  override get message(): string {
    return `${this.operation} failed: ${this.reason}`
  }
}
