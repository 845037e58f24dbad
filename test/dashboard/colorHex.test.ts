import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type Color, colorToHex, hexToColor, pickedColor, rgbOf, shownHex } from "../../src/dashboard/text/ColorHex.ts"
import { Value } from "../../src/domain/Value.ts"
import * as D from "../arbitraries/domain.ts"

/** The dashboard's colour picker speaks `#rrggbb`; lights speak the model's hue, saturation and value. */

const color = D.valueOfType("Color").filter((value): value is Color => value._tag === "Color")
const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, "0")}`)

/** Half an 8-bit step, the most rounding to a byte moves a channel (and a little for the arithmetic). */
const halfStep = 0.5 + 1e-9

const withinHalfAStep = (got: Color, wanted: Color) => {
  const expected = rgbOf(wanted)
  for (const [i, channel] of rgbOf(got).entries()) expect(Math.abs(channel - (expected[i] ?? Number.NaN))).toBeLessThanOrEqual(halfStep)
}

describe("a colour as #rrggbb and back", () => {
  it("reads every #rrggbb, in either case, into a colour of the model that writes back as itself", () => {
    fc.assert(fc.property(hex, fc.boolean(), (rgb, upper) => {
      const read = hexToColor(upper ? rgb.toUpperCase() : rgb)
      expect(read !== undefined && Schema.is(Value)(read)).toBe(true)
      expect(read === undefined ? undefined : colorToHex(read)).toBe(rgb)
    }))
  })

  it("writes every colour within half an 8-bit step of itself, channel by channel, read back", () => {
    fc.assert(fc.property(color, (c) => {
      const back = hexToColor(colorToHex(c))
      expect(back).toBeDefined()
      if (back !== undefined) withinHalfAStep(back, c)
    }))
  })

  it("reads nothing from what is not #rrggbb", () => {
    for (const text of ["", "#fff", "ff0000", "#ff00001", "#12345g", "red"]) expect(hexToColor(text)).toBeUndefined()
  })

  it("knows the colours a person names", () => {
    expect(colorToHex({ _tag: "Color", h: 0, s: 1, v: 1 })).toBe("#ff0000")
    expect(colorToHex({ _tag: "Color", h: 225, s: 0.8, v: 1 })).toBe("#3366ff")
    expect(colorToHex({ _tag: "Color", h: 120, s: 0.5, v: 1 })).toBe("#80ff80")
    expect(hexToColor("#000000")).toEqual({ _tag: "Color", h: 0, s: 0, v: 0 })
    expect(hexToColor("#808080")).toEqual({ _tag: "Color", h: 0, s: 0, v: 128 / 255 })
  })
})

describe("a light's picker", () => {
  it("shows the hue and saturation a light reports at full brightness, white when it reports none", () => {
    expect(shownHex({ _tag: "Color", h: 280, s: 0.35, v: 0 })).toBe(shownHex({ _tag: "Color", h: 280, s: 0.35, v: 1 }))
    expect(shownHex({ _tag: "Color", h: 0, s: 1, v: 0 })).toBe("#ff0000")
    expect(shownHex(undefined)).toBe("#ffffff")
  })

  it("sends the colour shown, at the brightness the light reports: what it shows, it sends back unchanged up to rounding", () => {
    fc.assert(fc.property(color, (reported) => {
      const sent = pickedColor(shownHex(reported), reported)
      expect(sent?.v).toBe(reported.v)
      if (sent !== undefined) withinHalfAStep({ ...sent, v: 1 }, { ...reported, v: 1 })
    }))
  })

  it("sends the hue and saturation picked, at full brightness for a light that reports no colour", () => {
    expect(pickedColor("#3366ff", undefined)).toEqual({ _tag: "Color", h: 225, s: 0.8, v: 1 })
    expect(pickedColor("#3366ff", { _tag: "Color", h: 10, s: 0.1, v: 0.25 })).toEqual({ _tag: "Color", h: 225, s: 0.8, v: 0.25 })
    expect(pickedColor("not a colour", undefined)).toBeUndefined()
  })
})
