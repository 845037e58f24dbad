import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { onFreePort } from "./freePort.ts"
import { postgresInitdb, postgresServer, psql, requireProgram } from "./requiredProgram.ts"
import { noteSpawned } from "./spawnedProcesses.ts"

/**
 * Debian's PostgreSQL 15 as a real database server: a cluster of its own in a temporary folder, on a
 * free loopback port, stopped by pid. `.ci/run` installs it. `initdb` refuses to run as root, so the
 * programs run as the `postgres` user (through `runuser`), in a folder that user owns. Start one per
 * test file and make a database per test (`createDatabase`: a few milliseconds).
 */

export interface Postgres {
  readonly port: number
  /** The superuser's name and password (connections over TCP need the password: SCRAM). */
  readonly user: string
  readonly password: string
  /** `postgres://USER@127.0.0.1:PORT/DATABASE`, without the password, as the gateway takes it. */
  readonly url: (database: string) => string
  /** A new database, empty or a copy of `template` (a database no one is connected to); answers its name. */
  readonly createDatabase: (template?: string) => Promise<string>
  /** Runs `sql` in `database` as the superuser (over the cluster's own socket); answers psql's unaligned rows. */
  readonly query: (database: string, sql: string) => ReadonlyArray<string>
  /** Stops the server (fast shutdown: open sessions are ended) and waits for it to exit. */
  readonly stop: () => Promise<void>
}

const password = "postgres-test-password"

const execFileAsync = promisify(execFile)

const asPostgres = (program: string, args: ReadonlyArray<string>) => ["-u", "postgres", "--", program, ...args]

const live = new Set<number>()
process.once("exit", () => {
  for (const pid of live) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // Gone already.
    }
  }
})

/** Starts the server on `port` and resolves once it accepts connections; fails with its log if it exits first. */
const run = (dataDir: string, socketDir: string, port: number): Promise<ChildProcess> => {
  // Durability is not what these tests are about: without fsync a cluster starts and commits faster.
  const settings = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200"]
  const args = ["-D", dataDir, "-k", socketDir, "-h", "127.0.0.1", "-p", String(port), ...settings]
  // Its own process group: runuser stays as the server's parent, and a leftover group is stopped whole.
  const child = spawn("runuser", asPostgres(requireProgram(postgresServer), args), { stdio: ["ignore", "ignore", "pipe"], detached: true })
  noteSpawned(child, true)
  let log = ""
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill("SIGKILL"), reject(new Error(`PostgreSQL did not start on port ${port}: ${log}`))), 20_000)
    const onData = (chunk: string) => {
      log += chunk
      if (/database system is ready to accept connections/.test(log)) {
        clearTimeout(timer)
        // Read on (a full pipe would stall the server), but keep nothing.
        child.stderr?.off("data", onData).on("data", () => {})
        resolve(child)
      }
    }
    child.stderr?.setEncoding("utf8").on("data", onData)
    child.once("exit", () => (clearTimeout(timer), reject(new Error(`PostgreSQL exited before accepting connections on port ${port}: ${log}`))))
  })
}

/** Waits for `done` to exist, checking every 100 ms, for at most a minute. */
const waitFor = async (done: string): Promise<void> => {
  for (let waited = 0; !existsSync(done); waited += 100) {
    if (waited > 60_000) throw new Error(`PostgreSQL's template cluster was not made in a minute (${done} missing)`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * A cluster made by `initdb` once per run and copied for each server: `initdb` takes seconds on a busy
 * machine, a copy a fraction of that. The first file that needs it makes it; the others wait for it.
 */
const templateCluster = async (root: string, postgresUser: number): Promise<string> => {
  const template = join(root, "postgres-template")
  const done = join(root, "postgres-template.done")
  try {
    mkdirSync(template)
  } catch {
    await waitFor(done)
    return template
  }
  chownSync(template, postgresUser, postgresUser)
  const passwordFile = join(template, "password")
  writeFileSync(passwordFile, `${password}\n`)
  chownSync(passwordFile, postgresUser, postgresUser)
  const args = ["-D", join(template, "data"), "-U", "postgres", `--pwfile=${passwordFile}`, "--auth-host=scram-sha-256", "--auth-local=trust"]
  await execFileAsync("runuser", asPostgres(requireProgram(postgresInitdb), [...args, "-E", "UTF8", "--no-sync", "--no-instructions"]))
  writeFileSync(done, "")
  return template
}

export const startPostgres = async (): Promise<Postgres> => {
  const client = requireProgram(psql)
  requireProgram(postgresServer)
  const root = process.env["GATEWAY_TEST_ROOT"] ?? tmpdir()
  // The postgres user must reach its folders through the run's folder, which mkdtemp made private.
  chmodSync(root, 0o711)
  const postgresUser = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim())
  const template = await templateCluster(root, postgresUser)
  const dir = mkdtempSync(join(root, "postgres-"))
  chownSync(dir, postgresUser, postgresUser)
  const dataDir = join(dir, "data")
  await execFileAsync("cp", ["-a", join(template, "data"), dataDir])

  let port = 0
  const child = await onFreePort((free) => (port = free, run(dataDir, dir, free)))
  // The server itself (runuser's child) is the one to stop: its pid is the first line of postmaster.pid.
  const serverPid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0])
  live.add(serverPid)

  const psqlArgs = (database: string, sql: string) =>
    asPostgres(client, ["-h", dir, "-p", String(port), "-U", "postgres", "-d", database, "-AtX", "-v", "ON_ERROR_STOP=1", "-c", sql])
  const query = (database: string, sql: string): ReadonlyArray<string> =>
    execFileSync("runuser", psqlArgs(database, sql), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).split("\n").filter((line) => line !== "")

  let databases = 0
  const createDatabase = async (template?: string) => {
    const name = `gateway_${++databases}`
    // FILE_COPY: a copy of the (small) template's files, faster here than logging every page (PostgreSQL 15's default).
    // Not blocking: tests that run side by side make their databases at once.
    const from = template === undefined ? "" : ` TEMPLATE ${template}`
    await execFileAsync("runuser", psqlArgs("postgres", `CREATE DATABASE ${name}${from} STRATEGY = FILE_COPY`))
    return name
  }

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve())
      // SIGINT: PostgreSQL's fast shutdown, which ends open sessions instead of waiting for them.
      process.kill(serverPid, "SIGINT")
    })
    live.delete(serverPid)
  }

  return { port, user: "postgres", password, url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`, createDatabase, query, stop }
}
