import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

/**
 * Passwords are stored as `scrypt$N$r$p$salt$hash` (salt and hash in base64): a slow, memory-hard,
 * salted hash whose parameters travel with it, so they can be raised later without breaking old hashes.
 * Verification recomputes with the stored parameters and compares in constant time.
 */

/** scrypt's parameters for new hashes. */
export interface PasswordCost {
  readonly N: number
  readonly r: number
  readonly p: number
}

/**
 * N = 2^15, r = 8, p = 1: 32 MiB and about 0.17 s per hash on the 2-core test machine; OWASP's minimum is
 * N = 2^17 / r = 8 for a server, but a home gateway hashes rarely and runs on small boards. The gateway
 * always hashes at this cost; the in-process tests provide a lower one, so that their hundreds of logins
 * cost milliseconds (the same scrypt, and a hash keeps its parameters wherever it is checked).
 */
export const defaultPasswordCost: PasswordCost = { N: 32_768, r: 8, p: 1 }

/** The cost the users service hashes at: the default, but where a test provides its own. */
export const PasswordCost = Context.Reference<PasswordCost>("app/PasswordCost", { defaultValue: () => defaultPasswordCost })
const keyLength = 32
const saltLength = 16
/** scrypt needs 128·N·r bytes; Node refuses past `maxmem` (32 MiB by default), so allow a margin. */
const maxmem = 256 * 1024 * 1024

/** The longest password accepted: hashing a huge one would be work done for an attacker. */
export const maxPasswordLength = 1_024

const derive = (password: string, salt: Buffer, N: number, r: number, p: number) =>
  Effect.callback<Buffer, Error>((resume) => {
    scrypt(password, salt, keyLength, { N, r, p, maxmem }, (error, key) =>
      resume(error === null ? Effect.succeed(key) : Effect.fail(error)))
  })

/** The stored form of a password. */
export const hashPassword = (password: Redacted.Redacted<string>, cost: PasswordCost = defaultPasswordCost): Effect.Effect<string> =>
  Effect.gen(function*() {
    const salt = randomBytes(saltLength)
    const key = yield* Effect.orDie(derive(Redacted.value(password), salt, cost.N, cost.r, cost.p))
    return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$")
  })

/** Whether `password` is the one `stored` was made from. A malformed stored hash matches nothing. */
export const verifyPassword = (password: Redacted.Redacted<string>, stored: string): Effect.Effect<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split("$")
  const N = Number(n)
  const R = Number(r)
  const P = Number(p)
  if (scheme !== "scrypt" || salt === undefined || hash === undefined || ![N, R, P].every(Number.isSafeInteger)) {
    return Effect.succeed(false)
  }
  const expected = Buffer.from(hash, "base64")
  return derive(Redacted.value(password), Buffer.from(salt, "base64"), N, R, P).pipe(
    Effect.map((key) => key.length === expected.length && timingSafeEqual(key, expected)),
    Effect.orElseSucceed(() => false)
  )
}

/**
 * What a password is checked against for an unknown user: a hash at the cost of new hashes, so that the
 * check costs what checking a known one does and timing does not tell which names exist. Random salt and
 * hash: no password matches it.
 */
export const decoyHash = (cost: PasswordCost): string =>
  ["scrypt", cost.N, cost.r, cost.p, "CCJ8dD/PVkVvW2vJ7yqB0A==", "0bF9xkM3l5g8aXKkI5r9f3t9cRk1ZQ8mGmQ0cC4yL7Q="].join("$")

/** A random password for a user created without one (the first-run admin, `users add`): 128 bits, base64url. */
export const randomPassword = (): Redacted.Redacted<string> => Redacted.make(randomBytes(16).toString("base64url"))
