import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { durationInWords, readingInWords, timeOfDayInWords } from "../../src/dashboard/text/Readings.ts"
import { builtinKind } from "../../src/domain/Kind.ts"

/** Readings as the people who live in the home read them (issue 39). */

describe("durationInWords", () => {
  it("says a duration in its two largest units", () => {
    expect(durationInWords(4320)).toBe("1 h 12 min")
    expect(durationInWords(330)).toBe("5 min 30 s")
    expect(durationInWords(300)).toBe("5 min")
    expect(durationInWords(45)).toBe("45 s")
    expect(durationInWords(2.5)).toBe("2.5 s")
    expect(durationInWords(0)).toBe("0 s")
    expect(durationInWords(183_600)).toBe("2 d 3 h")
    expect(durationInWords(3_599.6)).toBe("1 h")
  })

  it("never says more than two units, nor a smaller unit's full count", () => {
    fc.assert(fc.property(fc.double({ min: 10, max: 1e8, noNaN: true }), (seconds) => {
      const parts = durationInWords(seconds).split(" ")
      expect(parts.length === 2 || parts.length === 4).toBe(true)
      const [whole, big, rest, small] = parts
      if (big === "min" || big === "s") expect(Number(whole)).toBeLessThan(60)
      if (big === "h") expect(Number(whole)).toBeLessThan(24)
      if (rest !== undefined) expect(Number(rest)).toBeLessThan(small === "h" ? 24 : 60)
    }))
  })
})

describe("readingInWords", () => {
  it("writes a time of day (seconds since midnight, UTC) as this machine's clock time", () => {
    const today = new Date(Date.UTC(2026, 10, 28, 12))
    const sixOhOne = Date.UTC(2026, 10, 28) + 21_705_277
    expect(timeOfDayInWords(21_705.277, today)).toBe(new Date(sixOhOne).toLocaleTimeString())
    expect(readingInWords(builtinKind("CurrentTimeOfDay"), { _tag: "Duration", seconds: 60 })).toMatch(/\d:\d\d/)
  })

  it("writes a remaining time and a counted interval as durations, a temperature with its unit", () => {
    expect(readingInWords(builtinKind("RemainingTime"), { _tag: "Duration", seconds: 4320 })).toBe("1 h 12 min")
    expect(readingInWords(builtinKind("CountEveryInterval"), { _tag: "Duration", seconds: 600 })).toBe("10 min")
    expect(readingInWords(builtinKind("ActualTemperature"), { _tag: "Temperature", unit: "C", degrees: 19.849999 })).toBe("19.8 °C")
    expect(readingInWords(builtinKind("ActualTemperature"), { _tag: "Temperature", unit: "F", degrees: 68 })).toBe("68 °F")
  })

  it("writes a value not known yet as a dash, and an event that happened as Yes", () => {
    expect(readingInWords(builtinKind("OnOff"), undefined)).toBe("—")
    expect(readingInWords(builtinKind("Ready"), { _tag: "Unit" })).toBe("Yes")
  })
})
