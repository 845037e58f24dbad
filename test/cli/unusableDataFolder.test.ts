import { describe, expect, it } from "@effect/vitest"
import BetterSqlite3 from "better-sqlite3"
import { closeSync, existsSync, openSync, readdirSync, writeFileSync, writeSync } from "node:fs"
import { join } from "node:path"
import { migrations } from "../../src/store/Migrations.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { runGatewayInProcess } from "../support/gatewayCli.ts"
import { type Exited, runGateway } from "../support/spawnGateway.ts"

/**
 * A data folder the gateway cannot use gets the same answer from every command that opens it:
 * `gateway serve`, `gateway users …` and `gateway tokens …` print one line on stderr,
 * `gateway: cannot use the data folder DIR: why`, and exit with code 1 (docs/configuration.md). The
 * first case of each kind of refusal runs the commands as processes (nothing else reaches their stderr:
 * no stack, no banner); the others run them in this process, the same program with the same exit code.
 */

/** How a case runs `gateway …args`. */
type Runner = (args: ReadonlyArray<string>) => Promise<Exited>
const asProcess: Runner = (args) => runGateway(args, 20_000)

interface UnusableFolder {
  readonly dir: string
  /** The words after `DIR: `, or a pattern of them. */
  readonly why: string | RegExp
}

/** A file where the data folder should be. */
const aFile = (): UnusableFolder => {
  const dir = join(freshDataDir(), "a-file")
  writeFileSync(dir, "")
  return { dir, why: `opening ${join(dir, "gateway.db")} failed: ${dir} is a file, not a folder` }
}

/** A `gateway.db` that is no SQLite database. */
const corrupt = (): UnusableFolder => {
  const dir = freshDataDir()
  writeFileSync(join(dir, "gateway.db"), "not a database, not at all, and long enough to be read as a header")
  return { dir, why: `enabling WAL on ${join(dir, "gateway.db")} failed: file is not a database` }
}

/** A `gateway.db` written by a newer gateway (a schema version this one does not know). */
const newer = (): UnusableFolder => {
  const dir = freshDataDir()
  const file = join(dir, "gateway.db")
  const db = new BetterSqlite3(file)
  db.pragma("user_version = 99")
  db.close()
  return {
    dir,
    why: `${file} has schema version 99, but this gateway knows versions up to ${migrations.length}: ` +
      "a newer gateway wrote it. Run that newer gateway, or give this one another data folder."
  }
}

/** `text` as a pattern that matches it exactly. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * A `gateway.db` of this gateway's schema whose users table has a damaged page: without the check
 * at start, `serve` printed a stack trace on stdout, and a damaged tokens table let it start and then
 * answer 500 to every request.
 */
const damaged = (): UnusableFolder => {
  const dir = freshDataDir()
  const file = join(dir, "gateway.db")
  const db = new BetterSqlite3(file)
  for (const step of migrations) db.exec(step.sql)
  db.pragma(`user_version = ${migrations.length}`)
  const page = Number(db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'users'").pluck().get())
  const pageSize = Number(db.pragma("page_size", { simple: true }))
  db.close()
  const fd = openSync(file, "r+")
  writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, (page - 1) * pageSize)
  closeSync(fd)
  return { dir, why: new RegExp(`checking ${literally(file)} failed: its pages are damaged \\(.+\\): restore it from a backup, or move it away to start afresh`) }
}

/** Exit code 1 and the one line, with nothing of a stack, an ERROR log or a banner. */
const expectRefused = (exited: Exited, folder: UnusableFolder) => {
  expect(exited.code).toBe(1)
  const prefix = `gateway: cannot use the data folder ${folder.dir}: `
  expect(exited.stderr.split("\n").filter((line) => line.startsWith("gateway: "))).toEqual([
    typeof folder.why === "string" ? `${prefix}${folder.why}` : expect.stringMatching(new RegExp(`^${literally(prefix)}${folder.why.source}$`))
  ])
  expect(exited.stderr).not.toMatch(/\bat .*\.js:\d+/)
  expect(exited.stderr).not.toMatch(/DatabaseError|DatabaseTooNew|ERROR/)
  expect(exited.stdout).toBe("")
}

describe("users and tokens on a data folder the gateway cannot use", () => {
  it.each([
    ["a file where the folder should be", aFile, asProcess],
    ["a corrupt gateway.db", corrupt, runGatewayInProcess],
    ["a gateway.db whose pages are damaged", damaged, runGatewayInProcess],
    ["a gateway.db written by a newer gateway", newer, runGatewayInProcess]
  ])("%s: users list and tokens list say what serve says, in one line, exit code 1", async (_, make, run) => {
    const folder = make()
    const [serve, users, tokens] = await Promise.all([
      run(["serve", "--port", "0", "--data", folder.dir]),
      run(["users", "list", "--data", folder.dir]),
      run(["tokens", "list", "--data", folder.dir])
    ])
    expectRefused(serve, folder)
    expectRefused(users, folder)
    expectRefused(tokens, folder)
  })

  it("every other users and tokens subcommand answers the same", async () => {
    const folder = corrupt()
    const commands = [
      ["users", "add", "bob"],
      ["users", "remove", "bob"],
      ["users", "passwd", "bob"],
      ["tokens", "create"],
      ["tokens", "revoke", "1"]
    ]
    for (const command of commands) expectRefused(await runGatewayInProcess([...command, "--data", folder.dir]), folder)
  })

  it("a newer gateway's database is left untouched", async () => {
    const folder = newer()
    expectRefused(await runGatewayInProcess(["users", "add", "bob", "--data", folder.dir]), folder)
    const file = join(folder.dir, "gateway.db")
    const after = new BetterSqlite3(file, { readonly: true })
    try {
      expect(after.pragma("user_version", { simple: true })).toBe(99)
      expect(after.prepare("SELECT count(*) AS n FROM sqlite_master").get()).toEqual({ n: 0 })
    } finally {
      after.close()
    }
  })
})

describe("users and tokens on a data folder that does not exist", () => {
  it.each([
    { name: "users add", command: ["users", "add", "bob"], run: asProcess },
    { name: "users list", command: ["users", "list"], run: runGatewayInProcess },
    { name: "tokens create", command: ["tokens", "create", "--user", "admin"], run: runGatewayInProcess },
    { name: "tokens list", command: ["tokens", "list"], run: runGatewayInProcess }
  ])("$name refuses it, naming it, and makes nothing", async ({ command, run }) => {
    const parent = freshDataDir()
    const dir = join(parent, "no", "such", "folder")
    expectRefused(await run([...command, "--data", dir]), { dir, why: "no such folder (gateway serve makes it on its first run)" })
    expect(existsSync(join(parent, "no"))).toBe(false)
  })

  it("an empty folder that exists gets a database, as docs/running.md's set-up makes it", async () => {
    const dir = freshDataDir()
    expect(readdirSync(dir)).toEqual([])
    const added = await runGatewayInProcess(["users", "add", "bob", "--data", dir])
    expect(added.code).toBe(0)
    expect(readdirSync(dir)).toContain("gateway.db")
  })
})
