import type { Value } from "../../client/index.ts"

/**
 * A light's colour (the model's hue, saturation and value: hue in [0, 360), the others in [0, 1]) and
 * the `#rrggbb` of sRGB a browser's colour picker speaks, each into the other.
 */

export type Color = Extract<Value, { readonly _tag: "Color" }>

/** Red, green and blue of `color`, each in [0, 255], not rounded. */
export const rgbOf = (color: Color): readonly [number, number, number] => {
  const chroma = color.v * color.s
  const sector = color.h / 60
  const second = chroma * (1 - Math.abs((sector % 2) - 1))
  const [r, g, b] = sector < 1
    ? [chroma, second, 0]
    : sector < 2
    ? [second, chroma, 0]
    : sector < 3
    ? [0, chroma, second]
    : sector < 4
    ? [0, second, chroma]
    : sector < 5
    ? [second, 0, chroma]
    : [chroma, 0, second]
  const lift = color.v - chroma
  return [(r + lift) * 255, (g + lift) * 255, (b + lift) * 255]
}

const byte = (channel: number): string => Math.round(channel).toString(16).padStart(2, "0")

/** `#rrggbb`, each channel rounded to its nearest 8-bit step. */
export const colorToHex = (color: Color): string => `#${rgbOf(color).map(byte).join("")}`

/** The colour of `#rrggbb` (either case), or undefined for anything else. Grey has hue 0, black saturation 0. */
export const hexToColor = (hex: string): Color | undefined => {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return undefined
  const channel = (at: number) => parseInt(hex.slice(at, at + 2), 16) / 255
  const [r, g, b] = [channel(1), channel(3), channel(5)]
  const max = Math.max(r, g, b)
  const spread = max - Math.min(r, g, b)
  const sector = spread === 0 ? 0 : max === r ? ((g - b) / spread + 6) % 6 : max === g ? (b - r) / spread + 2 : (r - g) / spread + 4
  return { _tag: "Color", h: sector * 60, s: max === 0 ? 0 : spread / max, v: max }
}

/**
 * What a light's picker shows: the hue and saturation it reports at full brightness, so that a dimmed
 * light, or one whose value is 0, is not shown black (white when it reports no colour).
 */
export const shownHex = (reported: Color | undefined): string =>
  colorToHex(reported === undefined ? { _tag: "Color", h: 0, s: 0, v: 1 } : { ...reported, v: 1 })

/** What a pick sends: the hue and saturation picked, at the brightness the light reports (full when none). */
export const pickedColor = (hex: string, reported: Color | undefined): Color | undefined => {
  const picked = hexToColor(hex)
  return picked === undefined ? undefined : { ...picked, v: reported?.v ?? 1 }
}
