import * as fc from "fast-check"
import { Context, Deferred, Effect, Fiber, Layer, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import {
  LoginLocked,
  LoginThrottle,
  type LoginThrottleShape,
  maxFailuresPerAddress,
  maxFailuresPerUser,
  maxFailuresPerUserAndAddress
} from "../../src/auth/LoginThrottle.ts"
import { LoginFailuresInMemory } from "../../src/auth/LoginFailuresInMemory.ts"
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
  const run = <A>(effect: Effect.Effect<A, never, LoginThrottle>) =>
    Effect.runPromise(Effect.provide(effect, LoginThrottle.layer.pipe(Layer.provide(LoginFailuresInMemory))))
  const refused = Effect.succeed(Option.none())
  const admitted = Effect.succeed(Option.some("user"))
  /** What an attempt answers: the user admitted, "refused", or the seconds to wait. */
  const outcome = <E>(attempt: Effect.Effect<Option.Option<string>, E | LoginLocked>) =>
    attempt.pipe(
      Effect.map(Option.getOrElse(() => "refused")),
      Effect.catchIf((e): e is LoginLocked => e instanceof LoginLocked, (e) => Effect.succeed(e.retryAfterSeconds)),
      Effect.orDie
    )
  /** A check that is counted when it starts and answers `answer` once `release` is done. */
  const slowCheck = (release: Deferred.Deferred<void>, answer: Effect.Effect<Option.Option<string>>, checks: { count: number }) =>
    Effect.andThen(Effect.sync(() => void checks.count++), Effect.andThen(Deferred.await(release), answer))
  /** Starts an attempt now, up to its check or its wait, in a fiber of its own. */
  const inFlight = (throttle: LoginThrottleShape, username: string, address: string, check: Effect.Effect<Option.Option<string>>) =>
    Effect.forkChild(outcome(throttle.attempt(username, address, check)), { startImmediately: true })

  it("locks a username at one address after its failures there, not at another, nor another user there", async () => {
    const result = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      for (let i = 0; i < maxFailuresPerUserAndAddress; i++) yield* outcome(throttle.attempt("bob", "10.0.0.1", refused))
      return {
        locked: yield* outcome(throttle.attempt("bob", "10.0.0.1", admitted)),
        elsewhere: yield* outcome(throttle.attempt("bob", "10.0.0.2", admitted)),
        otherUser: yield* outcome(throttle.attempt("alice", "10.0.0.1", admitted))
      }
    }))
    expect(result.locked).toBeGreaterThan(0)
    expect(result.locked).toBeLessThanOrEqual(300)
    expect(result).toMatchObject({ elsewhere: "user", otherUser: "user" })
  })

  it(`locks a username everywhere after ${maxFailuresPerUser} failures from many addresses, which a success elsewhere does not clear`, async () => {
    const result = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      // Under the pair's limit at each address.
      const address = (i: number) => `10.0.${Math.floor(i / (maxFailuresPerUserAndAddress - 1))}.1`
      for (let i = 0; i < maxFailuresPerUser - 1; i++) yield* outcome(throttle.attempt("bob", address(i), refused))
      const beforeCeiling = yield* outcome(throttle.attempt("bob", "192.0.2.1", admitted))
      yield* outcome(throttle.attempt("bob", "192.0.2.2", refused))
      return {
        beforeCeiling,
        atCeiling: yield* outcome(throttle.attempt("bob", "192.0.2.3", admitted)),
        otherUser: yield* outcome(throttle.attempt("alice", "192.0.2.3", admitted))
      }
    }))
    expect(result.beforeCeiling).toBe("user")
    expect(result.atCeiling).toBeGreaterThan(0)
    expect(result.otherUser).toBe("user")
  })

  it("forgets a username's failures at an address when it logs in there", async () => {
    const after = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      for (let i = 0; i < maxFailuresPerUserAndAddress - 1; i++) yield* outcome(throttle.attempt("bob", "10.0.0.1", refused))
      yield* outcome(throttle.attempt("bob", "10.0.0.1", admitted))
      const answers = []
      for (let i = 0; i < maxFailuresPerUserAndAddress; i++) answers.push(yield* outcome(throttle.attempt("bob", "10.0.0.1", refused)))
      return answers
    }))
    expect(after).toEqual(Array<string>(maxFailuresPerUserAndAddress).fill("refused"))
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

  /**
   * A full budget of bob's attempts at one address in flight, each checked as `answer` once released,
   * and one more attempt started meanwhile, whose check admits: what each answered, and how many
   * checks ran while they were in flight and in all.
   */
  const oneMoreThanTheBudget = (answer: Effect.Effect<Option.Option<string>>) =>
    run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      const release = yield* Deferred.make<void>()
      const checks = { count: 0 }
      const budget = yield* Effect.forEach(
        Array.from({ length: maxFailuresPerUserAndAddress }),
        () => inFlight(throttle, "bob", "10.0.0.1", slowCheck(release, answer, checks))
      )
      const extra = yield* inFlight(throttle, "bob", "10.0.0.1", slowCheck(release, admitted, checks))
      const checkedWhileInFlight = checks.count
      yield* Deferred.succeed(release, undefined)
      return { checkedWhileInFlight, budget: yield* Fiber.joinAll(budget), extra: yield* Fiber.join(extra), checked: checks.count }
    }))

  it("holds an attempt past the budget while those in flight could still use it, and refuses it unchecked once they have failed", async () => {
    const result = await oneMoreThanTheBudget(refused)
    expect(result.checkedWhileInFlight).toBe(maxFailuresPerUserAndAddress)
    expect(result.budget).toEqual(Array<string>(maxFailuresPerUserAndAddress).fill("refused"))
    expect(result.extra).toBeGreaterThan(0)
    expect(result.checked).toBe(maxFailuresPerUserAndAddress)
  })

  it("lets in an attempt that waited, once those in flight have succeeded", async () => {
    const result = await oneMoreThanTheBudget(admitted)
    expect(result.checkedWhileInFlight).toBe(maxFailuresPerUserAndAddress)
    expect(result.budget).toEqual(Array<string>(maxFailuresPerUserAndAddress).fill("user"))
    expect(result.extra).toBe("user")
    expect(result.checked).toBe(maxFailuresPerUserAndAddress + 1)
  })

  it("judges a waiting attempt on what those in flight turned out to be: a success among failures makes room", async () => {
    const result = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      const releaseWrong = yield* Deferred.make<void>()
      const releaseRight = yield* Deferred.make<void>()
      const checks = { count: 0 }
      const wrong = yield* Effect.forEach(
        Array.from({ length: maxFailuresPerUserAndAddress - 1 }),
        () => inFlight(throttle, "bob", "10.0.0.1", slowCheck(releaseWrong, refused, checks))
      )
      const right = yield* inFlight(throttle, "bob", "10.0.0.1", slowCheck(releaseRight, admitted, checks))
      const extra = yield* inFlight(throttle, "bob", "10.0.0.1", slowCheck(releaseWrong, refused, checks))
      const checkedWhileInFlight = checks.count
      yield* Deferred.succeed(releaseRight, undefined)
      const first = yield* Fiber.join(right)
      yield* Deferred.succeed(releaseWrong, undefined)
      return { checkedWhileInFlight, first, wrong: yield* Fiber.joinAll(wrong), extra: yield* Fiber.join(extra) }
    }))
    expect(result.checkedWhileInFlight).toBe(maxFailuresPerUserAndAddress)
    expect(result.first).toBe("user")
    expect(result.wrong).toEqual(Array<string>(maxFailuresPerUserAndAddress - 1).fill("refused"))
    expect(result.extra).toBe("refused")
  })

  it("clears, with a success, the failures of its pair's attempts that were still being checked, whatever the order they end in", async () => {
    const result = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      const releaseWrong = yield* Deferred.make<void>()
      const checks = { count: 0 }
      const wrong = yield* Effect.forEach(
        Array.from({ length: maxFailuresPerUserAndAddress - 1 }),
        () => inFlight(throttle, "bob", "10.0.0.1", slowCheck(releaseWrong, refused, checks))
      )
      // The right password is checked first; the wrong ones sent with it fail after.
      const right = yield* outcome(throttle.attempt("bob", "10.0.0.1", admitted))
      yield* Deferred.succeed(releaseWrong, undefined)
      yield* Fiber.joinAll(wrong)
      const after = []
      for (let i = 0; i < maxFailuresPerUserAndAddress; i++) after.push(yield* outcome(throttle.attempt("bob", "10.0.0.1", refused)))
      return { right, after, locked: yield* outcome(throttle.attempt("bob", "10.0.0.1", admitted)) }
    }))
    expect(result.right).toBe("user")
    expect(result.after).toEqual(Array<string>(maxFailuresPerUserAndAddress).fill("refused"))
    expect(result.locked).toBeGreaterThan(0)
  })

  it("counts an attempt whose check fails or is interrupted as a failure", async () => {
    const result = await run(Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      for (let i = 0; i < maxFailuresPerUserAndAddress - 2; i++) yield* outcome(throttle.attempt("bob", "10.0.0.1", refused))
      yield* Effect.exit(throttle.attempt("bob", "10.0.0.1", Effect.fail("database down")))
      const hanging = yield* Effect.forkChild(throttle.attempt("bob", "10.0.0.1", Effect.never), { startImmediately: true })
      yield* Fiber.interrupt(hanging)
      return yield* outcome(throttle.attempt("bob", "10.0.0.1", admitted))
    }))
    expect(result).toBeGreaterThan(0)
  })

  /** Two gateways' throttles on one LoginFailures, as replicas on one database: what `use` answers with them. */
  const replicas = <A>(use: (first: LoginThrottleShape, second: LoginThrottleShape) => Effect.Effect<A>) =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const failures = yield* Layer.build(LoginFailuresInMemory)
      const throttle = Effect.map(Layer.build(Layer.fresh(LoginThrottle.layer).pipe(Layer.provide(Layer.succeedContext(failures)))), Context.get(LoginThrottle))
      return yield* use(yield* throttle, yield* throttle)
    })))

  it("counts the failures of gateways that share them together, and a success on one clears the pair's on both", async () => {
    const result = await replicas((first, second) =>
      Effect.gen(function*() {
        for (let i = 0; i < maxFailuresPerUserAndAddress; i++) yield* outcome((i % 2 === 0 ? first : second).attempt("bob", "10.0.0.1", refused))
        const locked = [yield* outcome(first.attempt("bob", "10.0.0.1", admitted)), yield* outcome(second.attempt("bob", "10.0.0.1", admitted))]
        for (let i = 0; i < maxFailuresPerUserAndAddress - 1; i++) yield* outcome(first.attempt("carol", "10.0.0.1", refused))
        yield* outcome(second.attempt("carol", "10.0.0.1", admitted))
        const afterSuccess = []
        for (let i = 0; i < maxFailuresPerUserAndAddress; i++) afterSuccess.push(yield* outcome(first.attempt("carol", "10.0.0.1", refused)))
        return { locked, afterSuccess }
      }))
    expect(result.locked.every((answer) => typeof answer === "number" && answer > 0)).toBe(true)
    expect(result.afterSuccess).toEqual(Array<string>(maxFailuresPerUserAndAddress).fill("refused"))
  })

  it("waits only for the attempts in flight on its own gateway, not another's (docs/replicas.md)", async () => {
    const checkedAtOnce = await replicas((first, second) =>
      Effect.gen(function*() {
        const release = yield* Deferred.make<void>()
        const checks = { count: 0 }
        const budget = yield* Effect.forEach(
          Array.from({ length: maxFailuresPerUserAndAddress }),
          () => inFlight(first, "bob", "10.0.0.1", slowCheck(release, refused, checks))
        )
        const onTheOther = yield* inFlight(second, "bob", "10.0.0.1", slowCheck(release, refused, checks))
        const checked = checks.count
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.joinAll([...budget, onTheOther])
        return checked
      }))
    expect(checkedAtOnce).toBe(maxFailuresPerUserAndAddress + 1)
  })
})
