import { describe, expect, it } from "@effect/vitest"
import { makeAskedStates } from "../../../src/adapters/mqtt/AskedStates.ts"

describe("the /get requests awaiting an answer", () => {
  it("awaits what a /get asked, within its window, until a state holding it arrives", () => {
    const asked = makeAskedStates(2_000)
    asked.seen("hall_thermostat", ["local_temperature", "system_mode"], 1_000)
    expect(asked.awaited("hall_thermostat", ["local_temperature"], 2_999)).toBe(true)
    expect(asked.awaited("hall_thermostat", ["local_temperature", "system_mode"], 2_999)).toBe(true)
    // Late: asked again.
    expect(asked.awaited("hall_thermostat", ["local_temperature"], 3_000)).toBe(false)
    asked.settled("hall_thermostat", ["local_temperature"])
    expect(asked.awaited("hall_thermostat", ["local_temperature"], 1_500)).toBe(false)
    expect(asked.awaited("hall_thermostat", ["system_mode"], 1_500)).toBe(true)
  })

  it("does not await what no /get asked: another property, another device, nothing", () => {
    const asked = makeAskedStates(2_000)
    asked.seen("hall_thermostat", ["local_temperature"], 1_000)
    expect(asked.awaited("hall_thermostat", ["local_temperature", "system_mode"], 1_000)).toBe(false)
    expect(asked.awaited("front_door", ["local_temperature"], 1_000)).toBe(false)
    expect(asked.awaited("hall_thermostat", [], 1_000)).toBe(false)
  })
})
