import * as fc from "fast-check"
import { Deferred, Effect, Fiber, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { LoginLocked, LoginThrottle, maxFailuresPerAddress, maxFailuresPerUser } from "../../src/auth/LoginThrottle.ts"
import { hashPassword, verifyPassword } from "../../src/auth/Password.ts"
import { hashToken, looksLikeToken, mintToken } from "../../src/auth/TokenSecret.ts"

const secret = (text: string) => Redacted.make(text)

describe("passwords", () => {
  it("are stored as salted scrypt with their parameters, and only the right one verifies", async () => {
    const [first, second] = await Promise.all([
      Effect.runPromise(hashPassword(secret("correct horse"))),
      Effect.runPromise(hashPassword(secret("correct horse")))
    ])
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
    expect(first).not.toBe(second)
    expect(first.includes("correct horse")).toBe(false)
    expect(await Effect.runPromise(verifyPassword(secret("correct horse"), first))).toBe(true)
    expect(await Effect.runPromise(verifyPassword(secret("correct horse"), second))).toBe(true)
    expect(await Effect.runPromise(verifyPassword(secret("correct hors"), first))).toBe(false)
  })

  it("never verify against a malformed stored hash", async () => {
    for (const stored of ["", "plain", "scrypt$x$8$1$AA==$AA==", "bcrypt$1$2$3$AA==$AA==", "scrypt$32768$8$1$AA=="]) {
      expect(await Effect.runPromise(verifyPassword(secret("anything"), stored))).toBe(false)
    }
  })
})

describe("tokens", () => {
  it("are gw_ and 256 random bits, distinct, and hashed to 64 hex digits that do not contain them", () => {
    const tokens = Array.from({ length: 100 }, mintToken).map(Redacted.value)
    expect(new Set(tokens).size).toBe(100)
    for (const token of tokens) {
      expect(looksLikeToken(token)).toBe(true)
      expect(Buffer.from(token.slice(3), "base64url")).toHaveLength(32)
      const hash = hashToken(Redacted.make(token))
      expect(hash).toMatch(/^[0-9a-f]{64}$/)
    }
  })

  it("of another shape are refused before any lookup", () => {
    fc.assert(fc.property(fc.string(), (text) => {
      expect(looksLikeToken(text)).toBe(/^gw_[A-Za-z0-9_-]{43}$/.test(text))
    }))
  })
})

describe("the login throttle", () => {
  const run = <A>(effect: Effect.Effect<A, never, LoginThrottle>) => Effect.runPromise(Effect.provide(effect, LoginThrottle.layer))
  const refused = Effect.succeed(Option.none())
  const admitted = Effect.succeed(Option.some("user"))
  /** What an attempt answers: the user admitted, "refused", or the seconds to wait. */
  const outcome = <E>(attempt: Effect.Effect<Option.Option<string>, E | LoginLocked>) =>
    attempt.pipe(
      Effect.map(Option.getOrElse(() => "refused")),
      Effect.catchIf((e): e is LoginLocked => e instanceof LoginLocked, (e) => Effect.succeed(e.retryAfterSeconds)),
      Effect.orDie
    )

  it("locks a username after its failures, from any address, and a success clears it", async () => {
    const result = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      for (let i = 0; i < maxFailuresPerUser; i++) yield* outcome(throttle.attempt("bob", `10.0.0.${i}`, refused))
      const locked = yield* outcome(throttle.attempt("bob", "10.0.0.99", admitted))
      const other = yield* outcome(throttle.attempt("alice", "10.0.0.99", admitted))
      return { locked, other }
    }))
    expect(result.locked).toBeGreaterThan(0)
    expect(result.locked).toBeLessThanOrEqual(300)
    expect(result.other).toBe("user")
  })

  it("forgets a username's failures when it logs in", async () => {
    const after = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      for (let i = 0; i < maxFailuresPerUser - 1; i++) yield* outcome(throttle.attempt("bob", "10.0.0.1", refused))
      yield* outcome(throttle.attempt("bob", "10.0.0.1", admitted))
      const answers = []
      for (let i = 0; i < maxFailuresPerUser; i++) answers.push(yield* outcome(throttle.attempt("bob", "10.0.0.1", refused)))
      return answers
    }))
    expect(after).toEqual(Array<string>(maxFailuresPerUser).fill("refused"))
  })

  it("locks an address after its failures, whatever the usernames", async () => {
    const locked = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      for (let i = 0; i < maxFailuresPerAddress; i++) yield* outcome(throttle.attempt(`user${i}`, "192.0.2.1", refused))
      return {
        there: yield* outcome(throttle.attempt("someone", "192.0.2.1", admitted)),
        elsewhere: yield* outcome(throttle.attempt("someone", "192.0.2.2", admitted))
      }
    }))
    expect(locked.there).toBeGreaterThan(0)
    expect(locked.elsewhere).toBe("user")
  })

  it("counts attempts still being checked: the one past the limit is refused without being checked", async () => {
    const result = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      const release = yield* Deferred.make<void>()
      let checked = 0
      const slowRefusal = Effect.andThen(Effect.sync(() => void checked++), Effect.as(Deferred.await(release), Option.none()))
      const inFlight = yield* Effect.forkChild(
        Effect.all(Array.from({ length: maxFailuresPerUser }, () => outcome(throttle.attempt("bob", "10.0.0.1", slowRefusal))), {
          concurrency: "unbounded"
        })
      )
      yield* Effect.yieldNow
      const extra = yield* outcome(throttle.attempt("bob", "10.0.0.2", admitted))
      const checkedWhileInFlight = checked
      yield* Deferred.succeed(release, undefined)
      return { extra, checkedWhileInFlight, inFlight: yield* Fiber.join(inFlight) }
    }))
    expect(result.checkedWhileInFlight).toBe(maxFailuresPerUser)
    expect(result.extra).toBeGreaterThan(0)
    expect(result.inFlight).toEqual(Array<string>(maxFailuresPerUser).fill("refused"))
  })

  it("counts an attempt whose check fails or is interrupted as a failure", async () => {
    const result = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      for (let i = 0; i < maxFailuresPerUser - 2; i++) yield* outcome(throttle.attempt("bob", "10.0.0.1", refused))
      yield* Effect.exit(throttle.attempt("bob", "10.0.0.1", Effect.fail("database down")))
      const hanging = yield* Effect.forkChild(throttle.attempt("bob", "10.0.0.1", Effect.never))
      yield* Effect.yieldNow
      yield* Fiber.interrupt(hanging)
      return yield* outcome(throttle.attempt("bob", "10.0.0.1", admitted))
    }))
    expect(result).toBeGreaterThan(0)
  })
})
