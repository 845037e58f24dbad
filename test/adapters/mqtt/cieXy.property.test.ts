import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { type Gamut, type Hsv, hsvOfRgb, hsvOfXy, intoGamut, rgbOfHsv, srgbGamut, type Xy, xyOfHsv } from "../../../src/adapters/mqtt/CieXy.ts"

/** Philips Hue's gamut C (its colour lights since 2016), wider than sRGB's. */
const hueGamutC: Gamut = { red: { x: 0.6915, y: 0.3083 }, green: { x: 0.17, y: 0.7 }, blue: { x: 0.1532, y: 0.0475 } }

const hsv = fc.record({
  h: fc.double({ min: 0, max: 360, maxExcluded: true, noNaN: true }),
  s: fc.double({ min: 0, max: 1, noNaN: true }),
  v: fc.double({ min: 0, max: 1, noNaN: true })
})

/** A colour's place on the hue/saturation disc: hue as the angle, saturation as the distance from white. */
const onDisc = ({ h, s }: Hsv) => [s * Math.cos(h * Math.PI / 180), s * Math.sin(h * Math.PI / 180)] as const

/** A point of the gamut's triangle, as a mix of its primaries. */
const inside = (gamut: Gamut) =>
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })).map(([a, b]): Xy => {
    const [p, q] = a + b > 1 ? [1 - a, 1 - b] : [a, b]
    const r = 1 - p - q
    return { x: p * gamut.red.x + q * gamut.green.x + r * gamut.blue.x, y: p * gamut.red.y + q * gamut.green.y + r * gamut.blue.y }
  })

const anyXy = fc.record({ x: fc.double({ min: 0, max: 1, noNaN: true }), y: fc.double({ min: 0, max: 1, noNaN: true }) })

const cross = (o: Xy, a: Xy, b: Xy) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
/** Whether the gamut holds `xy`, its edges included (to rounding). */
const holds = (gamut: Gamut, xy: Xy) => {
  const sides = [cross(gamut.red, gamut.green, xy), cross(gamut.green, gamut.blue, xy), cross(gamut.blue, gamut.red, xy)]
  return sides.every((s) => s >= -1e-12) || sides.every((s) => s <= 1e-12)
}

describe("CIE xy and h/s/v", () => {
  it("gives back an h/s/v colour through xy and a brightness step of 1/254, within the documented tolerance", () => {
    fc.assert(fc.property(hsv, (colour) => {
      const brightness = Math.round(colour.v * 254)
      const back = hsvOfXy(xyOfHsv(colour), brightness / 254)
      const [a, b] = onDisc(colour)
      const [c, d] = onDisc(back)
      expect(Math.hypot(a - c, b - d)).toBeLessThanOrEqual(0.01)
      expect(Math.abs(back.v - colour.v)).toBeLessThanOrEqual(0.5 / 254)
    }))
  })

  it("gives back a chromaticity of the gamut through h/s/v, within the 4 decimals it is written with", () => {
    fc.assert(fc.property(inside(srgbGamut), (xy) => {
      const back = xyOfHsv(hsvOfXy(xy, 1))
      expect(Math.abs(back.x - xy.x)).toBeLessThanOrEqual(0.0001)
      expect(Math.abs(back.y - xy.y)).toBeLessThanOrEqual(0.0001)
    }))
  })

  it("answers an h/s/v that is a colour, whatever xy comes in", () => {
    fc.assert(fc.property(anyXy, fc.double({ min: 0, max: 1, noNaN: true }), (xy, v) => {
      const colour = hsvOfXy(xy, v, hueGamutC)
      expect(colour.h).toBeGreaterThanOrEqual(0)
      expect(colour.h).toBeLessThan(360)
      expect(colour.s).toBeGreaterThanOrEqual(0)
      expect(colour.s).toBeLessThanOrEqual(1)
      expect(colour.v).toBe(v)
    }))
  })

  it("keeps a chromaticity of the gamut and moves any other to the nearest of the gamut's edges", () => {
    fc.assert(fc.property(inside(hueGamutC), (xy) => {
      const kept = intoGamut(xy, hueGamutC)
      expect(Math.hypot(kept.x - xy.x, kept.y - xy.y)).toBeLessThanOrEqual(1e-12)
    }))
    fc.assert(fc.property(anyXy, (xy) => {
      const moved = intoGamut(xy, hueGamutC)
      expect(holds(hueGamutC, moved)).toBe(true)
      // Nearest: no corner of the gamut is closer than where the point went.
      const distance = (p: Xy) => Math.hypot(p.x - xy.x, p.y - xy.y)
      for (const corner of [hueGamutC.red, hueGamutC.green, hueGamutC.blue]) {
        expect(distance(moved)).toBeLessThanOrEqual(distance(corner) + 1e-12)
      }
    }))
  })

  it("writes white as D65's white point and pure red as sRGB's red primary", () => {
    expect(xyOfHsv({ h: 0, s: 0, v: 1 })).toEqual({ x: 0.3127, y: 0.329 })
    expect(xyOfHsv({ h: 0, s: 1, v: 1 })).toEqual({ x: 0.64, y: 0.33 })
    expect(xyOfHsv({ h: 0, s: 1, v: 1 }, hueGamutC)).toEqual({ x: 0.64, y: 0.33 })
  })

  it("answers an h/s/v that is a colour, whatever 8-bit sRGB triple (or one out of range) comes in, and gives the triple back", () => {
    const channel = fc.integer({ min: -300, max: 600 })
    fc.assert(fc.property(fc.tuple(channel, channel, channel), fc.double({ min: 0, max: 1, noNaN: true }), (rgb, v) => {
      const colour = hsvOfRgb(rgb, v)
      expect(colour.h).toBeGreaterThanOrEqual(0)
      expect(colour.h).toBeLessThan(360)
      expect(colour.s).toBeGreaterThanOrEqual(0)
      expect(colour.s).toBeLessThanOrEqual(1)
    }))
    // A triple whose brightest channel is 255 comes back as it was.
    const full = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })).map(([a, b]) => [255, a, b] as const)
    fc.assert(fc.property(full, (rgb) => {
      expect(rgbOfHsv(hsvOfRgb(rgb, 1))).toEqual(rgb)
    }))
  })
})
