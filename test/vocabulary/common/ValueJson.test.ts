import * as fc from "fast-check"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Value } from "../../../src/domain/index.ts"
import { MAX_JSON_DEPTH, MAX_ROUNDED_DURATION_SECONDS, ValueInputJson, ValueJson } from "../../../src/vocabulary/common/ValueJson.ts"
import { value } from "../../arbitraries/domain.ts"
import { decoded, deeplyNested, onTheWire, rejection } from "./expectations.ts"
import { decode as decodeShape } from "../../../src/vocabulary/common/WireIssue.ts"

const at = ["value"]
const decode = (json: unknown) => decodeShape(ValueInputJson, json, at)

describe("values on the wire (docs/reference.md §2)", () => {
  describe("the examples of the table read as the model and are written back as shown", () => {
    const examples: ReadonlyArray<readonly [unknown, Value]> = [
      [{ Unit: null }, { _tag: "Unit" }],
      [{ OnOff: "On" }, { _tag: "OnOff", state: "On" }],
      [{ OnOff: "Off" }, { _tag: "OnOff", state: "Off" }],
      [{ OpenClosed: "Open" }, { _tag: "OpenClosed", state: "Open" }],
      [{ OpenClosed: "Closed" }, { _tag: "OpenClosed", state: "Closed" }],
      [{ DoorLocked: "Locked" }, { _tag: "DoorLocked", state: "Locked" }],
      [{ DoorLocked: "Unlocked" }, { _tag: "DoorLocked", state: "Unlocked" }],
      [{ Duration: 60.01 }, { _tag: "Duration", seconds: 60.01 }],
      [{ TimeStamp: "2026-11-22T06:00:00.000+00:00" }, { _tag: "TimeStamp", epochMillis: Date.UTC(2026, 10, 22, 6) }],
      [{ Temperature: { C: 21.5 } }, { _tag: "Temperature", unit: "C", degrees: 21.5 }],
      [{ Temperature: { F: 70.7 } }, { _tag: "Temperature", unit: "F", degrees: 70.7 }],
      [{ Color: { h: 23.5, s: 0.2, v: 0.4 } }, { _tag: "Color", h: 23.5, s: 0.2, v: 0.4 }],
      [{ String: "hello" }, { _tag: "String", value: "hello" }],
      [{ Json: { any: [1, "two", null, true] } }, { _tag: "Json", value: { any: [1, "two", null, true] } }],
      [{ Binary: { data: [0, 1, 2], mimetype: "image/png" } }, { _tag: "Binary", data: [0, 1, 2], mimetype: "image/png" }],
      [
        { ExtBool: { value: true, vendor: "v", adapter: "a", kind: "k" } },
        { _tag: "ExtBool", value: true, vendor: "v", adapter: "a", kind: "k" }
      ],
      [
        { ExtNumeric: { value: 3.5, vendor: "v", adapter: "a", kind: "k" } },
        { _tag: "ExtNumeric", value: 3.5, vendor: "v", adapter: "a", kind: "k" }
      ]
    ]
    for (const [json, model] of examples) {
      it(JSON.stringify(json), () => {
        expect(decoded(decode(json))).toEqual(model)
        expect(ValueJson.write(model)).toEqual(json)
      })
    }
  })

  describe("Unit", () => {
    it("is read from {\"Unit\": null} and a bare null", () => {
      for (const json of [{ Unit: null }, null]) {
        expect(decoded(decode(json))).toEqual({ _tag: "Unit" })
      }
    })
    it("is always written {\"Unit\": null}", () => {
      expect(ValueJson.write({ _tag: "Unit" })).toEqual({ Unit: null })
    })
    it("reads any payload as Unit, as FoxBox did ({\"Unit\": \"\"} is what its clients send)", () => {
      fc.assert(fc.property(fc.jsonValue(), (payload) => {
        expect(decoded(decode({ Unit: payload }))).toEqual({ _tag: "Unit" })
      }))
    })
  })

  describe("Duration", () => {
    it("is rounded to the millisecond", () => {
      expect(decoded(decode({ Duration: 60.0104 }))).toEqual({ _tag: "Duration", seconds: 60.01 })
      expect(decoded(decode({ Duration: 0.0005 }))).toEqual({ _tag: "Duration", seconds: 0.001 })
    })
    it("rounding is idempotent: a rounded duration reads back as itself", () => {
      fc.assert(fc.property(fc.double({ min: 0, max: 1e300, noNaN: true }), (seconds) => {
        const once = decoded(decode({ Duration: seconds }))
        expect(decoded(decode(ValueJson.write(once)))).toEqual(once)
      }), { numRuns: 2000 })
      fc.assert(fc.property(fc.maxSafeNat(), (ms) => {
        const once = decoded(decode({ Duration: ms / 1000 }))
        expect(decoded(decode(ValueJson.write(once)))).toEqual(once)
        if (ms < 2 ** 51) expect(once).toEqual({ _tag: "Duration", seconds: ms / 1000 })
      }), { numRuns: 5000 })
      expect(MAX_ROUNDED_DURATION_SECONDS).toBe(2 ** 51 / 1000)
    })
    it("refuses negative and non-numeric durations", () => {
      expect(rejection(decode({ Duration: -1 }))).toBe("body.value.Duration: must not be negative")
      expect(rejection(decode({ Duration: "60" }))).toBe("body.value.Duration: expected a number of seconds, got \"60\"")
    })
  })

  describe("TimeStamp", () => {
    it("reads any offset and writes UTC with milliseconds and +00:00", () => {
      const read = decoded(decode({ TimeStamp: "2026-11-22T07:30:00+01:30" }))
      expect(ValueJson.write(read)).toEqual({ TimeStamp: "2026-11-22T06:00:00.000+00:00" })
    })
  })

  describe("Temperature", () => {
    it("keeps the unit it was given", () => {
      expect(ValueJson.write(decoded(decode({ Temperature: { F: 70.7 } })))).toEqual({ Temperature: { F: 70.7 } })
    })
    it("refuses an unknown unit and two units at once", () => {
      expect(rejection(decode({ Temperature: { K: 290 } }))).toBe(
        "body.value.Temperature: unknown temperature unit \"K\" (expected \"C\" or \"F\")"
      )
      expect(rejection(decode({ Temperature: { C: 1, F: 2 } }))).toContain("body.value.Temperature: expected a temperature")
    })
  })

  describe("Color", () => {
    it("takes the hue mod 360, negative hues too", () => {
      expect(decoded(decode({ Color: { h: 370, s: 0, v: 0 } }))).toMatchObject({ h: 10 })
      expect(decoded(decode({ Color: { h: -30, s: 0, v: 0 } }))).toMatchObject({ h: 330 })
      expect(decoded(decode({ Color: { h: 720, s: 0, v: 0 } }))).toMatchObject({ h: 0 })
      expect(decoded(decode({ Color: { h: -1e-20, s: 0, v: 0 } }))).toMatchObject({ h: 0 })
    })
    it("refuses s or v outside [0, 1], naming the place", () => {
      expect(rejection(decodeShape(ValueInputJson, { Color: { h: 0, s: 2, v: 0.5 } }, ["value"]))).toBe(
        "body.value.Color.s: must be between 0 and 1"
      )
      expect(rejection(decodeShape(ValueInputJson, { Color: { h: 0, s: 0.5, v: -0.1 } }, [0, "value"]))).toBe(
        "body[0].value.Color.v: must be between 0 and 1"
      )
    })
    it("refuses a missing or an unknown component", () => {
      expect(rejection(decode({ Color: { h: 0, s: 0 } }))).toBe("body.value.Color: missing field \"v\"")
      expect(rejection(decode({ Color: { h: 0, s: 0, v: 0, a: 1 } }))).toBe(
        "body.value.Color: unknown field \"a\" (a color takes h, s, v)"
      )
    })
  })

  describe("Binary", () => {
    it("refuses anything but bytes 0..255", () => {
      for (const bad of [256, -1, 1.5, "1"]) {
        expect(rejection(decode({ Binary: { data: [0, bad], mimetype: "x/y" } }))).toMatch(
          /^body\.value\.Binary\.data\[1\]: expected a byte \(an integer from 0 to 255\), got /
        )
      }
    })
  })

  describe("Json", () => {
    it("holds any JSON", () => {
      fc.assert(fc.property(fc.jsonValue(), (json) => {
        expect(decoded(decode({ Json: json }))).toEqual({ _tag: "Json", value: json })
      }))
    })
    it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels, without overflowing the stack`, () => {
      expect(decoded(decode({ Json: deeplyNested(MAX_JSON_DEPTH) }))._tag).toBe("Json")
      expect(rejection(decode({ Json: deeplyNested(MAX_JSON_DEPTH + 1) }))).toBe(
        `body.value.Json: must not nest deeper than ${MAX_JSON_DEPTH} levels`
      )
      expect(rejection(decode({ Json: deeplyNested(100_000) }))).toContain("must not nest deeper")
    })
  })

  describe("readable refusals", () => {
    it("names an unknown value type and lists the known ones", () => {
      const message = rejection(decodeShape(ValueInputJson, { Foo: 1 }, [0, "value"]))
      expect(message).toMatch(/^body\[0\]\.value: unknown value type "Foo" \(known: Unit, OnOff, .*ExtNumeric\)$/)
    })
    it("refuses an object with no key or several keys", () => {
      expect(rejection(decode({}))).toBe(
        "body.value: expected a value such as {\"OnOff\": \"On\"}, got an object with 0 keys"
      )
      expect(rejection(decode({ OnOff: "On", String: "x" }))).toContain("got an object with 2 keys")
    })
    it("refuses a misspelt state, quoting it", () => {
      expect(rejection(decode({ OnOff: "on" }))).toBe("body.value.OnOff: expected \"On\" or \"Off\", got \"on\"")
    })
    it("refuses what is not an object", () => {
      expect(rejection(decode(3))).toBe("body.value: expected a value such as {\"OnOff\": \"On\"}, got 3")
      expect(rejection(decode([]))).toBe("body.value: expected a value such as {\"OnOff\": \"On\"}, got an array")
    })
  })

  describe("laws", () => {
    it("decode(encode(v)) = v, also through JSON text", () => {
      fc.assert(fc.property(value, (v) => {
        expect(decoded(decode(ValueJson.write(v)))).toEqual(v)
        expect(decoded(decode(onTheWire(ValueJson.write(v))))).toEqual(v)
      }))
    })
    it("a value is written as an object with one key, its type", () => {
      fc.assert(fc.property(value, (v) => {
        expect(Object.keys(ValueJson.write(v) as object)).toEqual([v._tag])
      }))
    })
    it("whatever it reads is a valid domain Value", () => {
      const isValue = Schema.is(Value)
      const loose = fc.oneof(
        fc.jsonValue(),
        value.map(ValueJson.write),
        fc.record({
          Color: fc.record({ h: fc.double(), s: fc.double(), v: fc.double() })
        }),
        fc.record({ Duration: fc.double() })
      )
      fc.assert(fc.property(loose, (json) => {
        const result = decode(json)
        if (result._tag === "Success") expect(isValue(result.success)).toBe(true)
      }))
    })
  })
})
