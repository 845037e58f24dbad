import * as fc from "fast-check"
import { Effect, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { LoginThrottle, maxFailuresPerAddress, maxFailuresPerUser } from "../../src/auth/LoginThrottle.ts"
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

  it("locks a username after its failures, from any address, and a success clears it", async () => {
    const result = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      for (let i = 0; i < maxFailuresPerUser; i++) yield* throttle.failed("bob", `10.0.0.${i}`)
      const locked = yield* throttle.lockedFor("bob", "10.0.0.99")
      const other = yield* throttle.lockedFor("alice", "10.0.0.99")
      yield* throttle.succeeded("bob")
      return { locked, other, after: yield* throttle.lockedFor("bob", "10.0.0.99") }
    }))
    expect(Option.isSome(result.locked) && result.locked.value > 0).toBe(true)
    expect(result.other).toEqual(Option.none())
    expect(result.after).toEqual(Option.none())
  })

  it("locks an address after its failures, whatever the usernames", async () => {
    const locked = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      for (let i = 0; i < maxFailuresPerAddress; i++) yield* throttle.failed(`user${i}`, "192.0.2.1")
      return { there: yield* throttle.lockedFor("someone", "192.0.2.1"), elsewhere: yield* throttle.lockedFor("someone", "192.0.2.2") }
    }))
    expect(Option.isSome(locked.there)).toBe(true)
    expect(locked.elsewhere).toEqual(Option.none())
  })
})
