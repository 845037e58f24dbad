import * as Data from "effect/Data"

/** What a store operation that did not happen tells. */
export interface StoreFailure {
  /** What the store was doing: the statement (shortened) or the step, e.g. `opening /var/lib/gateway/gateway.db`. */
  readonly operation: string
  /** Why, in the words of what keeps the data. */
  readonly reason: string
  /** The keeper's own code for it, if it has one (SQLite's extended result code, e.g. `SQLITE_CONSTRAINT_CHECK`). */
  readonly code?: string | undefined
}

/** `<operation> failed: <reason>`: how a failure of a store reads in a log or a refusal to start. */
export const describeStoreFailure = ({ operation, reason }: StoreFailure): string => `${operation} failed: ${reason}`

/**
 * A store (the tags, users and tokens the gateway keeps) could not do what was asked: the one failure
 * the stores the core and auth define may answer, whatever keeps the data. Not the caller's fault: a
 * request that meets it is answered 500. `message` reads e.g. `INSERT INTO tags … failed: disk I/O error`.
 */
export class StoreError extends Data.TaggedError("StoreError")<StoreFailure> {
  override get message(): string {
    return describeStoreFailure(this)
  }
}
