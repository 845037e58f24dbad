import { accessSync, constants } from "node:fs"
import { delimiter, isAbsolute, join } from "node:path"

/**
 * A program from Debian that some tests drive (`.ci/run` installs them all). A test whose program is
 * missing fails at once, in one line that says how to install it, before it starts anything else.
 */
export interface RequiredProgram {
  /** A name looked up on PATH, or an absolute path. */
  readonly program: string
  /** The Debian package that installs it. */
  readonly aptPackage: string
}

/** The headless shell of Debian's Chromium, which the dashboard's browser tests and its bench drive (bench/support/Chromium.ts). */
export const chromiumHeadlessShell: RequiredProgram = { program: "/usr/bin/chromium-headless-shell", aptPackage: "chromium-headless-shell" }
export const mosquitto: RequiredProgram = { program: "mosquitto", aptPackage: "mosquitto" }
export const mosquittoPasswd: RequiredProgram = { program: "mosquitto_passwd", aptPackage: "mosquitto" }
export const openssl: RequiredProgram = { program: "openssl", aptPackage: "openssl" }
export const wrk: RequiredProgram = { program: "wrk", aptPackage: "wrk" }
/** What the docs' examples are written with, and a fresh Debian lacks. */
export const curl: RequiredProgram = { program: "curl", aptPackage: "curl" }
/** The load balancer of the replica tests (docs/replicas.md), in /usr/sbin. */
export const haproxy: RequiredProgram = { program: "haproxy", aptPackage: "haproxy" }
/** Debian keeps PostgreSQL's server programs off PATH, under its version's folder. */
export const postgresInitdb: RequiredProgram = { program: "/usr/lib/postgresql/15/bin/initdb", aptPackage: "postgresql-15" }
export const postgresServer: RequiredProgram = { program: "/usr/lib/postgresql/15/bin/postgres", aptPackage: "postgresql-15" }
export const psql: RequiredProgram = { program: "/usr/lib/postgresql/15/bin/psql", aptPackage: "postgresql-15" }

/** Debian installs some programs (mosquitto) in /usr/sbin, which a non-root PATH may lack. */
const searchPath = (): ReadonlyArray<string> => [...(process.env["PATH"] ?? "").split(delimiter).filter((dir) => dir !== ""), "/usr/sbin"]

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** Where `program` is, if it is installed. */
export const programPath = ({ program }: RequiredProgram): string | undefined =>
  isAbsolute(program) ? (executable(program) ? program : undefined) : searchPath().map((dir) => join(dir, program)).find(executable)

/** The one line a test fails with when `program` is missing. */
export const notInstalled = ({ program, aptPackage }: RequiredProgram): string => `${program} is not installed: apt-get install -y ${aptPackage}`

/**
 * The path of `program`; throws at once (not in a promise) when it is missing, with `notInstalled`'s line
 * as its whole report: the stack would only say which test needed it, which the test's name says.
 */
export const requireProgram = (required: RequiredProgram): string => {
  const path = programPath(required)
  if (path !== undefined) return path
  const missing = new Error(notInstalled(required))
  missing.stack = missing.message
  throw missing
}
