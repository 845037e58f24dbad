import { describe, expect, it } from "vitest"
import { withoutBidiControls } from "../../src/dashboard/text/DeviceText.ts"

describe("device text on the dashboard", () => {
  it("loses every bidi control (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and nothing else", () => {
    const controls = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"]
    expect(withoutBidiControls(`a${controls.join("")}b`)).toBe("ab")
    expect(withoutBidiControls("Salon \u05D0\u05D1 · Lampe 💡 \u200D")).toBe("Salon \u05D0\u05D1 · Lampe 💡 \u200D")
  })
})
