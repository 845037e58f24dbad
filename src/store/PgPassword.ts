import * as Config from "effect/Config"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { whyUnreadable } from "../FileTrouble.ts"

/** `--database-password-file` names a file the gateway cannot read, or whose first line is empty. */
export class DatabasePasswordFileUnusable extends Data.TaggedError("DatabasePasswordFileUnusable")<{ readonly file: string; readonly reason: string }> {
  override get message(): string {
    return `cannot use the database password file ${this.file}: ${this.reason}`
  }
}

/** What a `.pgpass` line is matched on: the URL's host, port, database and user, with libpq's defaults. */
interface Target {
  readonly host: string
  readonly port: string
  readonly database: string
  readonly user: string
}

const targetOf = (url: string, user: string): Target => {
  const parsed = new URL(url)
  const username = decodeURIComponent(parsed.username) || user
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port || "5432",
    database: decodeURIComponent(parsed.pathname.slice(1)) || username,
    user: username
  }
}

/** A `.pgpass` line's five fields: `:` separates them, `\` escapes `:` and `\`. */
const fieldsOf = (line: string): ReadonlyArray<string> => {
  const fields: Array<string> = []
  let field = ""
  for (let i = 0; i < line.length; i++) {
    const char = line.charAt(i)
    if (char === "\\" && i + 1 < line.length) field += line.charAt(++i)
    else if (char === ":") (fields.push(field), field = "")
    else field += char
  }
  fields.push(field)
  return fields
}

/** The password of the first line of a `.pgpass` file that matches `target` (`*` matches anything), as libpq reads it. */
export const pgpassPassword = (text: string, target: Target): Option.Option<string> => {
  const wanted = [target.host, target.port, target.database, target.user]
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith("#")) continue
    const fields = fieldsOf(line)
    if (fields.length < 5) continue
    if (wanted.every((value, i) => fields[i] === "*" || fields[i] === value)) return Option.some(fields.slice(4).join(":"))
  }
  return Option.none()
}

/** An environment variable, if set (an unreadable one counts as unset). */
const setting = <A>(config: Config.Config<A>) => Effect.orElseSucceed(Config.option(config), () => Option.none<A>())

/**
 * The password for the database at `url`, never from the command line (docs/auth.md): the first line
 * of `--database-password-file`, else `PGPASSWORD`, else the matching line of PostgreSQL's password
 * file (`PGPASSFILE`, else `~/.pgpass`; as libpq, ignored with a warning when others may read it),
 * else none.
 */
export const databasePassword = Effect.fn("PgPassword.databasePassword")(function*(url: string, passwordFile: Option.Option<string>) {
  const fs = yield* FileSystem.FileSystem
  if (Option.isSome(passwordFile)) {
    const file = passwordFile.value
    const line = yield* fs.readFileString(file).pipe(
      Effect.mapError((error) => new DatabasePasswordFileUnusable({ file, reason: whyUnreadable(error) })),
      Effect.map((text) => text.split(/\r?\n/, 1)[0] ?? "")
    )
    if (line === "") return yield* new DatabasePasswordFileUnusable({ file, reason: "its first line is empty" })
    return Option.some(Redacted.make(line))
  }
  // Empty is none, as libpq reads it.
  const fromEnvironment = Option.filter(yield* setting(Config.Redacted("PGPASSWORD")), (password) => Redacted.value(password) !== "")
  if (Option.isSome(fromEnvironment)) return fromEnvironment
  const home = Option.getOrElse(yield* setting(Config.String("HOME")), () => "")
  const user = Option.getOrElse(yield* setting(Config.String("USER")), () => "")
  const pgpass = Option.getOrElse(yield* setting(Config.String("PGPASSFILE")), () => `${home}/.pgpass`)
  const info = yield* Effect.option(fs.stat(pgpass))
  if (Option.isNone(info) || info.value.type !== "File") return Option.none()
  if ((info.value.mode & 0o077) !== 0) {
    yield* Effect.logWarning(`${pgpass} is ignored: others may read it (chmod 0600 ${pgpass}, as PostgreSQL's own tools ask)`)
    return Option.none()
  }
  const text = yield* Effect.orElseSucceed(fs.readFileString(pgpass), () => "")
  return Option.map(pgpassPassword(text, targetOf(url, user)), Redacted.make)
})
