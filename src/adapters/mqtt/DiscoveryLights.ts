import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { builtinKind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import { readState } from "./BridgeMessages.ts"
import { hsvOfRgb, hsvOfXy, rgbOfHsv, xyOfHsv } from "./CieXy.ts"
import { type Builder, numeric, onOff, twoState } from "./DiscoveryChannels.ts"
import { type Config, numberOf, topicOf } from "./DiscoveryConfig.ts"
import { discoveryExtension, vendorOf, wrongValue } from "./DiscoveryPoint.ts"

/** A discovered `light`, of either schema (docs/adapters/mqtt.md, "MQTT discovery"). */

/** The light's colour modes the gateway reads and writes, the first one it supports being used. */
const colourModes = ["hs", "xy", "rgb"] as const
type ColourMode = typeof colourModes[number]

const colourModeOf = (config: Config): Option.Option<ColourMode> => {
  const listed = Array.isArray(config["supported_color_modes"]) ? config["supported_color_modes"] : []
  return Option.fromUndefinedOr(colourModes.find((mode) => listed.includes(mode) || config[mode] === true))
}

type Colour = Extract<Value, { _tag: "Color" }>
const colourIn = (mode: ColourMode, color: Readonly<Record<string, unknown>>, v: number): Option.Option<Colour> => {
  const n = (key: string) => (typeof color[key] === "number" && Number.isFinite(color[key]) ? (color[key] as number) : undefined)
  const [h, s, x, y, r, g, bl] = ["h", "s", "x", "y", "r", "g", "b"].map(n)
  const hsv = mode === "hs"
    ? h === undefined || s === undefined ? undefined : { h: ((h % 360) + 360) % 360, s: Math.min(1, Math.max(0, s / 100)), v }
    : mode === "xy"
    ? x === undefined || y === undefined ? undefined : hsvOfXy({ x, y }, v)
    : r === undefined || g === undefined || bl === undefined ? undefined : hsvOfRgb([r, g, bl], v)
  return Option.map(Option.fromUndefinedOr(hsv), (c): Colour => ({ _tag: "Color", ...c }))
}

const colourOut = (mode: ColourMode, value: Colour): Readonly<Record<string, number>> => {
  if (mode === "hs") return { h: value.h, s: value.s * 100 }
  if (mode === "xy") return xyOfHsv(value)
  const [r, g, b] = rgbOfHsv(value)
  return { r, g, b }
}

/**
 * A light of the `json` schema (ESPHome's, Zigbee2MQTT's): one JSON state and one JSON command; on/off,
 * and its colour with the brightness as `v`, or the brightness alone.
 */
export const jsonLight = (b: Builder, config: Config) => {
  const scale = Option.getOrElse(numberOf(config, "brightness_scale"), () => 255)
  const mode = colourModeOf(config)
  const dims = config["brightness"] === true || Option.isSome(mode) || (Array.isArray(config["supported_color_modes"]) && config["supported_color_modes"].includes("brightness"))
  const stateOf = readState
  b.add(
    "",
    builtinKind("OnOff"),
    b.reading("state_topic", "", (text) =>
      Option.flatMap(stateOf(text), (state) =>
        state["state"] === "ON" ? Option.some({ _tag: "OnOff", state: "On" } as Value) : state["state"] === "OFF" ? Option.some({ _tag: "OnOff", state: "Off" } as Value) : Option.none())),
    b.writing("command_topic", "", (value) =>
      value._tag === "OnOff" ? Result.succeed(JSON.stringify({ state: value.state === "On" ? "ON" : "OFF" })) : wrongValue(b.local(""), "OnOff", value))
  )
  const level = (state: Readonly<Record<string, unknown>>) =>
    typeof state["brightness"] === "number" && Number.isFinite(state["brightness"]) ? Option.some(state["brightness"]) : Option.none<number>()
  if (Option.isSome(mode)) {
    const colourMode = mode.value
    return b.add(
      "color",
      builtinKind("LightColor"),
      b.reading("state_topic", "", (text) =>
        Option.flatMap(stateOf(text), (state) => {
          const color = state["color"]
          if (typeof color !== "object" || color === null) return Option.none()
          const v = Math.min(1, Math.max(0, Option.getOrElse(level(state), () => scale) / scale))
          return colourIn(colourMode, color as Readonly<Record<string, unknown>>, v)
        })),
      b.writing("command_topic", "", (value) =>
        value._tag === "Color"
          ? Result.succeed(JSON.stringify({ state: "ON", color: colourOut(colourMode, value), brightness: Math.round(value.v * scale) }))
          : wrongValue(b.local("color"), "Color", value))
    )
  }
  if (dims) {
    b.add(
      "brightness",
      discoveryExtension("brightness", "ExtNumeric"),
      b.reading("state_topic", "", (text) => Option.flatMap(Option.flatMap(stateOf(text), level), (value) => Option.some({ _tag: "ExtNumeric", value, ...vendorOf("brightness") } as Value))),
      b.writing("command_topic", "", (value) =>
        value._tag === "ExtNumeric" ? Result.succeed(JSON.stringify({ state: "ON", brightness: value.value })) : wrongValue(b.local("brightness"), "ExtNumeric", value)),
      { describes: brightnessRange(b, scale) }
    )
  }
}

/** A light of the default schema: on/off on `state_topic`/`command_topic`, the brightness on its own topics. */
export const defaultLight = (b: Builder, config: Config) => {
  const payloads = onOff(config)
  twoState(b, "OnOff", ["On", "Off"], { topic: "state_topic", template: "state_value_template", ...payloads }, {
    topic: "command_topic",
    template: "",
    ...payloads
  })
  const scale = Option.getOrElse(numberOf(config, "brightness_scale"), () => 255)
  numeric(b, "brightness", "brightness", ["brightness_state_topic", "brightness_value_template"], "brightness_command_topic", brightnessRange(b, scale))
  const mode = colourModes.find((m) => Option.isSome(topicOf(config, `${m}_state_topic`)) || Option.isSome(topicOf(config, `${m}_command_topic`)))
  if (mode === undefined) return
  // The colour's own topics carry its chromaticity as text (`h,s`, `x,y`, `r,g,b`); the brightness is its own channel.
  const keys = { hs: ["h", "s"], xy: ["x", "y"], rgb: ["r", "g", "b"] }[mode]
  b.add(
    "color",
    builtinKind("LightColor"),
    b.reading(`${mode}_state_topic`, `${mode}_value_template`, (text) => {
      const parts = text.split(",").map((part) => Number(part.trim()))
      return parts.length === keys.length ? colourIn(mode, Object.fromEntries(keys.map((key, i) => [key, parts[i]])), 1) : Option.none()
    }),
    b.writing(`${mode}_command_topic`, `${mode}_command_template`, (value) =>
      value._tag === "Color" ? Result.succeed(Object.values(colourOut(mode, value)).join(",")) : wrongValue(b.local("color"), "Color", value))
  )
}

/** A light's brightness range, for clients to write within it (a channel carries no range). */
const brightnessRange = (b: Builder, scale: number) => ({ [`${b.local("brightness")}_min`]: "0", [`${b.local("brightness")}_max`]: String(scale) })
