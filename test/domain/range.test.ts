import { describe, expect, it } from "vitest"
import { contains, type Value } from "../../src/domain/index.ts"

describe("Range.contains", () => {
  it("compares temperatures in Celsius, whatever unit they were given in", () => {
    expect(contains({ _tag: "Eq", value: { _tag: "Temperature", unit: "C", degrees: 100 } }, { _tag: "Temperature", unit: "F", degrees: 212 })).toBe(true)
    expect(contains({ _tag: "Leq", value: { _tag: "Temperature", unit: "C", degrees: 20 } }, { _tag: "Temperature", unit: "F", degrees: 70 })).toBe(false)
  })

  it("orders two-state values Off < On, Closed < Open, Unlocked < Locked", () => {
    expect(contains({ _tag: "Geq", value: { _tag: "OnOff", state: "Off" } }, { _tag: "OnOff", state: "On" })).toBe(true)
    expect(contains({ _tag: "Leq", value: { _tag: "OpenClosed", state: "Closed" } }, { _tag: "OpenClosed", state: "Open" })).toBe(false)
    expect(contains({ _tag: "Geq", value: { _tag: "DoorLocked", state: "Locked" } }, { _tag: "DoorLocked", state: "Unlocked" })).toBe(false)
  })

  it("matches unordered types (Color, Json, Binary) only with Eq, by structure", () => {
    const red: Value = { _tag: "Color", h: 0, s: 1, v: 1 }
    expect(contains({ _tag: "Eq", value: red }, { _tag: "Color", h: 0, s: 1, v: 1 })).toBe(true)
    expect(contains({ _tag: "Leq", value: red }, red)).toBe(false)
    expect(contains({ _tag: "Eq", value: { _tag: "Json", value: { a: 1, b: [2] } } }, { _tag: "Json", value: { b: [2], a: 1 } })).toBe(true)
    expect(contains({ _tag: "OutOfStrict", low: red, high: red }, red)).toBe(false)
  })
})
