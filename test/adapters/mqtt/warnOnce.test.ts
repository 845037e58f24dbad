import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { makeWarnOnce, quoted, warningKeyLength, warningsRemembered } from "../../../src/adapters/mqtt/WarnOnce.ts"

/** The warnings `said` gets logged, in order, kept out of the output. */
const logging = (said: (warnOnce: (message: string) => Effect.Effect<void>) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const logged: Array<string> = []
    const { warnOnce, remembered } = makeWarnOnce()
    yield* said(warnOnce).pipe(Effect.provide(Logger.layer([Logger.make(({ message }) => void logged.push([message].flat().join(" ")))])))
    return { logged, remembered: remembered() }
  })

describe("warnings about what devices send", () => {
  it.effect("are said once each, and at most 1,000 are remembered, the oldest forgotten first", () =>
    Effect.gen(function*() {
      const count = warningsRemembered + 500
      const { logged, remembered } = yield* logging((warnOnce) =>
        Effect.gen(function*() {
          for (let i = 0; i < count; i++) yield* warnOnce(`warning ${i}`)
          yield* warnOnce(`warning ${count - 1}`)
          yield* warnOnce("warning 0")
        })
      )
      expect(remembered).toBe(warningsRemembered)
      // The last one is remembered, the first was forgotten and is said again.
      expect(logged).toEqual([...Array.from({ length: count }, (_, i) => `warning ${i}`), "warning 0"])
    }))

  it.effect("are remembered by their first 256 characters", () =>
    Effect.gen(function*() {
      const head = "w".repeat(warningKeyLength)
      const { logged, remembered } = yield* logging((warnOnce) =>
        Effect.gen(function*() {
          yield* warnOnce(`${head}${"a".repeat(1024 * 1024)}`)
          yield* warnOnce(`${head}b`)
          yield* warnOnce(head.slice(1))
        })
      )
      expect(logged.map((line) => line.length)).toEqual([warningKeyLength + 1024 * 1024, warningKeyLength - 1])
      expect(remembered).toBe(2)
    }))
})

describe("quoted", () => {
  it("cuts a device's text over 256 characters with …, and leaves a shorter one as it is", () => {
    expect(quoted("x".repeat(256))).toBe("x".repeat(256))
    expect(quoted("x".repeat(1024 * 1024))).toBe(`${"x".repeat(255)}…`)
  })

  it("does not split a character of two UTF-16 units", () => {
    // Counted in characters, as ids are: 257 of them, the 255th a character of two units.
    const text = `${"x".repeat(254)}😀😀😀`
    expect(quoted(text)).toBe(`${"x".repeat(254)}😀…`)
  })
})
