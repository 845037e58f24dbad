/**
 * CIE 1931 xy chromaticity, as Zigbee lights and Home Assistant's `xy` colour mode speak it, to and
 * from the gateway's h/s/v (docs/adapters/mqtt.md, "Colours in xy"). h/s/v names sRGB colours, so the
 * conversion goes through linear sRGB (D65 white). The brightness travels apart from xy (a light's
 * `brightness`, 0 to its maximum) and is the colour's `v`.
 *
 * A colour outside the light's gamut (the triangle of its three primaries) is moved to the nearest
 * colour inside it, as Philips documents for Hue; without a stated gamut, sRGB's own primaries.
 * Round trip: h/s/v → xy (rounded to 4 decimals, as Zigbee2MQTT publishes it) → h/s/v gives back the
 * colour within 0.01 on the hue/saturation disc (saturation the distance from white, hue the angle),
 * and `v` within half a brightness step; xy of the gamut → h/s/v → xy within 0.0001
 * (test/adapters/mqtt/cieXy.property.test.ts).
 */

export type Xy = {
  readonly x: number
  readonly y: number
}

export interface Gamut {
  readonly red: Xy
  readonly green: Xy
  readonly blue: Xy
}

export interface Hsv {
  readonly h: number
  readonly s: number
  readonly v: number
}

/** sRGB's primaries: every colour an h/s/v names, and the default gamut. */
export const srgbGamut: Gamut = { red: { x: 0.64, y: 0.33 }, green: { x: 0.3, y: 0.6 }, blue: { x: 0.15, y: 0.06 } }

type Vector = readonly [number, number, number]
type Matrix = readonly [Vector, Vector, Vector]

/** Linear sRGB to CIE XYZ (IEC 61966-2-1). */
const toXyz: Matrix = [
  [0.4124564, 0.3575761, 0.1804375],
  [0.2126729, 0.7151522, 0.072175],
  [0.0193339, 0.119192, 0.9503041]
]

const each = ([a, b, c]: Vector, f: (n: number) => number): Vector => [f(a), f(b), f(c)]

const times = (m: Matrix, [a, b, c]: Vector): Vector => [
  m[0][0] * a + m[0][1] * b + m[0][2] * c,
  m[1][0] * a + m[1][1] * b + m[1][2] * c,
  m[2][0] * a + m[2][1] * b + m[2][2] * c
]

/** The inverse of `toXyz`, computed from it so that the two undo each other to rounding. */
const fromXyz: Matrix = (() => {
  const [[a, b, c], [d, e, f], [g, h, i]] = toXyz
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]
  ]
})()

const compand = (linear: number) => (linear <= 0.0031308 ? 12.92 * linear : 1.055 * linear ** (1 / 2.4) - 0.055)
const expand = (encoded: number) => (encoded <= 0.04045 ? encoded / 12.92 : ((encoded + 0.055) / 1.055) ** 2.4)

const cross = (o: Xy, a: Xy, b: Xy) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)

/** The point of segment a–b nearest to p. */
const nearestOnSegment = (p: Xy, a: Xy, b: Xy): Xy => {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const t = Math.min(1, Math.max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
  return { x: a.x + t * dx, y: a.y + t * dy }
}

/** `xy` itself if the gamut holds it, else the nearest point of the gamut's edges. */
export const intoGamut = (xy: Xy, gamut: Gamut): Xy => {
  const { red, green, blue } = gamut
  const sides = [cross(red, green, xy), cross(green, blue, xy), cross(blue, red, xy)]
  if (sides.every((s) => s >= 0) || sides.every((s) => s <= 0)) return xy
  const distance = (p: Xy) => (p.x - xy.x) ** 2 + (p.y - xy.y) ** 2
  return [nearestOnSegment(xy, red, green), nearestOnSegment(xy, green, blue), nearestOnSegment(xy, blue, red)]
    .reduce((best, p) => (distance(p) < distance(best) ? p : best))
}

/** sRGB (0 to 1, companded) of a colour at full value. */
const rgbOf = ({ h, s }: Hsv): Vector => {
  const channel = (n: number) => {
    const k = (n + h / 60) % 6
    return 1 - s * Math.max(0, Math.min(k, 4 - k, 1))
  }
  return [channel(5), channel(3), channel(1)]
}

const hueOf = ([r, g, b]: Vector, max: number, spread: number): number => {
  if (spread === 0) return 0
  const sector = max === r ? (g - b) / spread : max === g ? (b - r) / spread + 2 : (r - g) / spread + 4
  return ((sector * 60) % 360 + 360) % 360
}

/** An 8-bit sRGB triple of an h/s/v colour's chromaticity (its `v` apart: the brightest channel is 255). */
export const rgbOfHsv = (hsv: Hsv): readonly [number, number, number] => each(rgbOf(hsv), (c) => Math.round(c * 255))

/** The h/s/v of an sRGB triple (0 to 255) whose brightness is `v`; black reads as white. */
export const hsvOfRgb = (given: readonly [number, number, number], v: number): Hsv => {
  const rgb = each(given, (c) => Math.min(255, Math.max(0, c)))
  const max = Math.max(...rgb)
  const spread = max - Math.min(...rgb)
  return { h: hueOf(rgb, max, spread), s: max === 0 ? 0 : spread / max, v: Math.min(1, Math.max(0, v)) }
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000

/** The chromaticity of an h/s/v colour (its `v` is the brightness, apart), in the gamut, rounded to 4 decimals. */
export const xyOfHsv = (hsv: Hsv, gamut: Gamut = srgbGamut): Xy => {
  const [x, y, z] = times(toXyz, each(rgbOf(hsv), expand))
  const sum = x + y + z
  const inGamut = intoGamut({ x: x / sum, y: y / sum }, gamut)
  return { x: round4(inGamut.x), y: round4(inGamut.y) }
}

/** The h/s/v of a chromaticity at value `v` (the light's brightness over its maximum). */
export const hsvOfXy = (xy: Xy, v: number, gamut: Gamut = srgbGamut): Hsv => {
  const { x, y } = intoGamut(xy, gamut)
  // A y of 0 holds no light (only a gamut with a primary on the x axis lets one through): read as white.
  const linear = y <= 0 ? ([1, 1, 1] as const) : times(fromXyz, [x / y, 1, (1 - x - y) / y])
  // A colour of a wider gamut than sRGB's comes in at sRGB's edge.
  const clipped = each(linear, (c) => Math.max(0, c))
  const peak = Math.max(...clipped)
  const rgb = each(clipped, (c) => compand(peak === 0 ? 1 : c / peak))
  const max = Math.max(...rgb)
  const spread = max - Math.min(...rgb)
  return { h: hueOf(rgb, max, spread), s: max === 0 ? 0 : Math.min(1, spread / max), v: Math.min(1, Math.max(0, v)) }
}
