import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { builtinKind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import type { Expose } from "./BridgeMessages.ts"
import { hsvOfXy, xyOfHsv } from "./CieXy.ts"
import { channelsOf, numberIn, type Point, type State, usable, wrongType } from "./Point.ts"

/**
 * A light's colour (`color_hs` or `color_xy`, with the light's `brightness` as the value `v`) as one
 * LightColor channel (docs/adapters/mqtt.md, "From exposes to kinds").
 */

type Hs = { readonly h: number; readonly s: number }

/** How a colour sits in the `color` object of a state or a `/set`, whatever the value. */
interface ColorSpace {
  readonly read: (color: Readonly<Record<string, unknown>>, v: number) => Option.Option<Hs>
  readonly write: (value: Extract<Value, { _tag: "Color" }>) => Readonly<Record<string, number>>
}

const clamp = (n: number) => Math.min(1, Math.max(0, n))

const spaces: Readonly<Record<string, ColorSpace>> = {
  color_hs: {
    read: ({ hue, saturation }) =>
      typeof hue === "number" && typeof saturation === "number"
        ? Option.some({ h: ((hue % 360) + 360) % 360, s: clamp(saturation / 100) })
        : Option.none(),
    write: (value) => ({ hue: value.h, saturation: value.s * 100 })
  },
  // Zigbee2MQTT's exposes state no gamut: sRGB's, the default (docs/adapters/mqtt.md, "Colours in xy").
  color_xy: {
    read: ({ x, y }, v) =>
      typeof x === "number" && typeof y === "number" && Number.isFinite(x) && Number.isFinite(y)
        ? Option.some(hsvOfXy({ x, y }, v))
        : Option.none(),
    write: (value) => xyOfHsv(value)
  }
}

/** The names of the colour exposes a light's colour is read from, the first one a light has being the one used. */
export const colorExposeNames = Object.keys(spaces)

const defaultBrightnessMax = 254

/** The colour point of `color` (a `color_hs` or `color_xy` composite), with the light's `brightness` if it has one. */
export const colorPoint = (ieee: string, color: Expose, brightness: Expose | undefined): Option.Option<Point> => {
  const space = spaces[color.name ?? ""]
  if (space === undefined || !usable(color)) return Option.none()
  const property = color.property ?? "color"
  const withBrightness = brightness?.property
  const brightnessMax = brightness?.value_max ?? defaultBrightnessMax
  return Option.some({
    properties: withBrightness === undefined ? [property] : [property, withBrightness],
    kind: builtinKind("LightColor"),
    ...channelsOf(ieee, property, color),
    event: false,
    describes: {},
    read: (state: State) => {
      const color = state[property]
      if (typeof color !== "object" || color === null) return Option.none()
      const level = withBrightness === undefined ? Option.none() : numberIn(state, withBrightness)
      const v = clamp(Option.getOrElse(level, () => brightnessMax) / brightnessMax)
      return Option.map(space.read(color as Readonly<Record<string, unknown>>, v), ({ h, s }): Value => ({ _tag: "Color", h, s, v }))
    },
    write: (value) => {
      if (value._tag !== "Color") return wrongType(property, "Color", value)
      const colour = { [property]: space.write(value) }
      return Result.succeed(withBrightness === undefined ? colour : { ...colour, [withBrightness]: Math.round(value.v * brightnessMax) })
    }
  })
}
