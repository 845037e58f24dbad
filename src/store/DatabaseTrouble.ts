import * as Option from "effect/Option"
import type { DatabaseError } from "./Database.ts"

/** What a failure told of the database file itself, whatever the statement (for `/health`). */
export interface DatabaseTrouble {
  readonly reason: string
  /** Damage lasts: no later success undoes it. */
  readonly lasting: boolean
}

/** SQLite's codes for a file whose pages are damaged (or that is no database at all). */
export const isDamage = (code: string | undefined): boolean =>
  code !== undefined && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB")

/** What `error` says of `file` itself, if it says anything: read-only, full, unreadable, damaged. */
export const troubleOf = (file: string, { code, reason }: DatabaseError): Option.Option<DatabaseTrouble> => {
  if (code === undefined) return Option.none()
  if (isDamage(code)) return Option.some({ reason: `the database ${file} is damaged: ${reason}`, lasting: true })
  if (code.startsWith("SQLITE_READONLY") || code === "SQLITE_FULL") {
    return Option.some({ reason: `the database ${file} cannot be written: ${reason}`, lasting: false })
  }
  if (code.startsWith("SQLITE_IOERR") || code.startsWith("SQLITE_CANTOPEN")) {
    return Option.some({ reason: `the database ${file} cannot be used: ${reason}`, lasting: false })
  }
  return Option.none()
}

/** What `PRAGMA quick_check` found, in one line, unless it found all well (`ok`). */
export const damageFound = (findings: ReadonlyArray<string>): Option.Option<string> => {
  if (findings.length === 1 && findings[0] === "ok") return Option.none()
  const found = findings.slice(0, 3).join("; ").replace(/\s+/g, " ").trim()
  return Option.some(`its pages are damaged (${found}${findings.length > 3 ? "; …" : ""}): restore it from a backup, or move it away to start afresh`)
}
