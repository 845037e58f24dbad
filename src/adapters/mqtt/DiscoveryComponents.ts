import { Option, Result } from "effect"
import { builtinKind, type Kind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import { hsvOfRgb, hsvOfXy, rgbOfHsv, xyOfHsv } from "./CieXy.ts"
import { type Config, numberOf, textOf, textOr, topicOf } from "./DiscoveryConfig.ts"
import { discoveryExtension, type DiscoveryPoint, type Reading, vendorOf, type Writing, wrongValue } from "./DiscoveryPoint.ts"
import { readCommandTemplate, readTemplate } from "./DiscoveryTemplate.ts"

/**
 * How a discovered entity's config becomes channels (the table in docs/adapters/mqtt.md, "MQTT
 * discovery"). Pure: a component and its config in, the points out, with the templates the gateway
 * could not evaluate (each leaves its channel out), or why the entity cannot be used at all.
 */

export interface MappedEntity {
  readonly points: ReadonlyArray<DiscoveryPoint>
  /** `<option>: <template>` for each template left out. */
  readonly unsupported: ReadonlyArray<string>
}

/** What reading one entity's config builds: its points, and what it had to leave out. */
const entityBuilder = (config: Config, base: string) => {
  const unsupported: Array<string> = []
  const points: Array<DiscoveryPoint> = []
  /** A getter on the topic of `topicKey`, its payload passed through the template of `templateKey`. */
  const reading = (topicKey: string, templateKey: string, read: (text: string) => Option.Option<Value>): Option.Option<Reading> =>
    Option.flatMap(topicOf(config, topicKey), (topic) => {
      const template = textOf(config, templateKey)
      const extract = readTemplate(template)
      if (Result.isFailure(extract)) {
        unsupported.push(`${templateKey}: ${extract.failure}`)
        return Option.none()
      }
      return Option.some({ topic, read: (payload: string) => Option.flatMap(extract.success(payload), read) })
    })
  /** A setter on the topic of `topicKey`, its payload passed through the command template of `templateKey`. */
  const writing = (topicKey: string, templateKey: string, write: Writing["write"]): Option.Option<Writing> =>
    Option.flatMap(topicOf(config, topicKey), (topic) => {
      const fill = readCommandTemplate(textOf(config, templateKey))
      if (Result.isFailure(fill)) {
        unsupported.push(`${templateKey}: ${fill.failure}`)
        return Option.none()
      }
      return Option.some({ topic, write: (value: Value) => Result.map(write(value), fill.success) })
    })
  const add = (part: string, kind: Kind, read: Option.Option<Reading>, write: Option.Option<Writing>, more: Partial<DiscoveryPoint> = {}) => {
    if (Option.isSome(read) || Option.isSome(write)) {
      points.push({ local: part === "" ? base : `${base}.${part}`, kind, reading: read, writing: write, event: false, describes: {}, ...more })
    }
  }
  return { unsupported, points, reading, writing, add, local: (part: string) => (part === "" ? base : `${base}.${part}`) }
}

type Builder = ReturnType<typeof entityBuilder>

type TwoState = "OnOff" | "OpenClosed" | "DoorLocked"

/** A two-state kind read from `on`/`off` texts and written as `onPayload`/`offPayload`. */
const twoState = (
  b: Builder,
  kind: TwoState,
  [onState, offState]: readonly [string, string],
  read: { readonly topic: string; readonly template: string; readonly on: string; readonly off: string },
  write?: { readonly topic: string; readonly template: string; readonly on: string; readonly off: string }
) =>
  b.add(
    "",
    builtinKind(kind),
    b.reading(read.topic, read.template, (text) =>
      text === read.on ? Option.some({ _tag: kind, state: onState } as Value) : text === read.off ? Option.some({ _tag: kind, state: offState } as Value) : Option.none()),
    write === undefined ? Option.none() : b.writing(write.topic, write.template, (value) =>
      value._tag === kind ? Result.succeed(value.state === onState ? write.on : write.off) : wrongValue(b.local(""), kind, value))
  )

const number = (text: string): Option.Option<number> => {
  const n = Number(text.trim())
  return text.trim() !== "" && Number.isFinite(n) ? Option.some(n) : Option.none()
}

const isFahrenheit = (unit: Option.Option<string>) => Option.isSome(unit) && (unit.value === "°F" || unit.value === "F")

/** A Temperature channel in `unit` (`C` or `F`); a write in the other unit is converted. */
const temperature = (
  b: Builder,
  part: string,
  kind: "ActualTemperature" | "Thermostat",
  unit: "C" | "F",
  readFrom: readonly [string, string],
  writeTo?: string,
  describes: Record<string, string> = {}
) =>
  b.add(
    part,
    builtinKind(kind),
    b.reading(readFrom[0], readFrom[1], (text) => Option.map(number(text), (degrees): Value => ({ _tag: "Temperature", unit, degrees }))),
    writeTo === undefined ? Option.none() : b.writing(writeTo, "", (value) => {
      if (value._tag !== "Temperature") return wrongValue(b.local(part), "Temperature", value)
      const degrees = value.unit === unit ? value.degrees : unit === "C" ? (value.degrees - 32) * 5 / 9 : value.degrees * 9 / 5 + 32
      return Result.succeed(String(degrees))
    }),
    { describes }
  )

/** A number channel (`ExtNumeric` of `kind`). */
const numeric = (b: Builder, part: string, kind: string, readFrom: readonly [string, string], writeTo: string | undefined, describes: Record<string, string> = {}) =>
  b.add(
    part,
    discoveryExtension(kind, "ExtNumeric"),
    b.reading(readFrom[0], readFrom[1], (text) => Option.map(number(text), (value): Value => ({ _tag: "ExtNumeric", value, ...vendorOf(kind) }))),
    writeTo === undefined
      ? Option.none()
      : b.writing(writeTo, "", (value) => (value._tag === "ExtNumeric" ? Result.succeed(String(value.value)) : wrongValue(b.local(part), "ExtNumeric", value))),
    { describes }
  )

/** A text channel (`String` of `kind`); `event`: each message is an event (an action). */
const text = (b: Builder, part: string, kind: string, readFrom: readonly [string, string], writeTo: string | undefined) =>
  b.add(
    part,
    discoveryExtension(kind, "String"),
    b.reading(readFrom[0], readFrom[1], (text) => Option.some({ _tag: "String", value: text })),
    writeTo === undefined
      ? Option.none()
      : b.writing(writeTo, "", (value) => (value._tag === "String" ? Result.succeed(value.value) : wrongValue(b.local(part), "String", value)))
  )

/** `binary_sensor` device classes whose `on` means open. */
const openingClasses = new Set(["door", "garage_door", "opening", "window"])

const onOff = (config: Config) => ({ on: textOr(config, "payload_on", "ON"), off: textOr(config, "payload_off", "OFF") })

/** Config keys and their defaults: what a state says for each state, and what a command sends for each. */
interface StateTexts {
  readonly on: readonly [string, string]
  readonly off: readonly [string, string]
}

/** A two-state entity read on `state_topic` (through `value_template`) and written on `command_topic` (through `command_template`). */
const commandedTwoState = (b: Builder, config: Config, kind: TwoState, states: readonly [string, string], read: StateTexts, write: StateTexts) =>
  twoState(b, kind, states, {
    topic: "state_topic",
    template: "value_template",
    on: textOr(config, ...read.on),
    off: textOr(config, ...read.off)
  }, { topic: "command_topic", template: "command_template", on: textOr(config, ...write.on), off: textOr(config, ...write.off) })

const switchEntity = (b: Builder, config: Config) => {
  const payloads = onOff(config)
  commandedTwoState(b, config, "OnOff", ["On", "Off"], { on: ["state_on", payloads.on], off: ["state_off", payloads.off] }, {
    on: ["payload_on", "ON"],
    off: ["payload_off", "OFF"]
  })
}

const lockEntity = (b: Builder, config: Config) =>
  commandedTwoState(b, config, "DoorLocked", ["Locked", "Unlocked"], { on: ["state_locked", "LOCKED"], off: ["state_unlocked", "UNLOCKED"] }, {
    on: ["payload_lock", "LOCK"],
    off: ["payload_unlock", "UNLOCK"]
  })

const binarySensorEntity = (b: Builder, config: Config) => {
  const { on, off } = onOff(config)
  const deviceClass = textOf(config, "device_class")
  if (Option.isSome(deviceClass) && openingClasses.has(deviceClass.value)) {
    return twoState(b, "OpenClosed", ["Open", "Closed"], { topic: "state_topic", template: "value_template", on, off })
  }
  const kind = Option.getOrElse(deviceClass, () => "binary_sensor")
  b.add(
    "",
    discoveryExtension(kind, "ExtBool"),
    b.reading("state_topic", "value_template", (text) =>
      text === on || text === off ? Option.some({ _tag: "ExtBool", value: text === on, ...vendorOf(kind) }) : Option.none()),
    Option.none()
  )
}

const sensorEntity = (b: Builder, config: Config, objectId: string) => {
  const unit = textOf(config, "unit_of_measurement")
  const deviceClass = textOf(config, "device_class")
  const from = ["state_topic", "value_template"] as const
  if (Option.getOrUndefined(deviceClass) === "temperature" || (Option.isSome(unit) && ["°C", "°F"].includes(unit.value))) {
    return temperature(b, "", "ActualTemperature", isFahrenheit(unit) ? "F" : "C", from)
  }
  const kind = Option.getOrElse(deviceClass, () => objectId)
  if (Option.isSome(unit) || Option.isSome(textOf(config, "state_class"))) {
    return numeric(b, "", kind, from, undefined, Option.match(unit, { onNone: () => ({}), onSome: (u) => ({ [`${b.local("")}_unit`]: u }) }))
  }
  text(b, "", kind, from, undefined)
}

const buttonEntity = (b: Builder, config: Config) => {
  const press = textOr(config, "payload_press", "PRESS")
  b.add(
    "",
    discoveryExtension(Option.getOrElse(textOf(config, "device_class"), () => "press"), "Unit"),
    Option.none(),
    b.writing("command_topic", "command_template", (value) => (value._tag === "Unit" ? Result.succeed(press) : wrongValue(b.local(""), "Unit", value)))
  )
}

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

const jsonObject = (text: string): Option.Option<Readonly<Record<string, unknown>>> => {
  try {
    const json: unknown = JSON.parse(text)
    return typeof json === "object" && json !== null && !Array.isArray(json) ? Option.some(json as Readonly<Record<string, unknown>>) : Option.none()
  } catch {
    return Option.none()
  }
}

/**
 * A light of the `json` schema (ESPHome's, Zigbee2MQTT's): one JSON state and one JSON command; on/off,
 * and its colour with the brightness as `v`, or the brightness alone.
 */
const jsonLight = (b: Builder, config: Config) => {
  const scale = Option.getOrElse(numberOf(config, "brightness_scale"), () => 255)
  const mode = colourModeOf(config)
  const dims = config["brightness"] === true || Option.isSome(mode) || (Array.isArray(config["supported_color_modes"]) && config["supported_color_modes"].includes("brightness"))
  const stateOf = (text: string) => jsonObject(text)
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
      { describes: { [`${b.local("brightness")}_min`]: "0", [`${b.local("brightness")}_max`]: String(scale) } }
    )
  }
}

/** A light of the default schema: on/off on `state_topic`/`command_topic`, the brightness on its own topics. */
const defaultLight = (b: Builder, config: Config) => {
  const payloads = onOff(config)
  twoState(b, "OnOff", ["On", "Off"], { topic: "state_topic", template: "state_value_template", ...payloads }, {
    topic: "command_topic",
    template: "",
    ...payloads
  })
  const scale = Option.getOrElse(numberOf(config, "brightness_scale"), () => 255)
  numeric(b, "brightness", "brightness", ["brightness_state_topic", "brightness_value_template"], "brightness_command_topic", {
    [`${b.local("brightness")}_min`]: "0",
    [`${b.local("brightness")}_max`]: String(scale)
  })
}

const coverEntity = (b: Builder, config: Config) => {
  commandedTwoState(b, config, "OpenClosed", ["Open", "Closed"], { on: ["state_open", "open"], off: ["state_closed", "closed"] }, {
    on: ["payload_open", "OPEN"],
    off: ["payload_close", "CLOSE"]
  })
  numeric(b, "position", "position", ["position_topic", "position_template"], "set_position_topic", {
    [`${b.local("position")}_open`]: textOr(config, "position_open", "100"),
    [`${b.local("position")}_closed`]: textOr(config, "position_closed", "0")
  })
}

const climateEntity = (b: Builder, config: Config) => {
  const unit = textOf(config, "temperature_unit")
  const c = isFahrenheit(unit) ? "F" : "C"
  temperature(b, "current_temperature", "ActualTemperature", c, ["current_temperature_topic", "current_temperature_template"])
  // Home Assistant's defaults: 7 to 35 °C, 44.6 to 95 °F.
  const [min, max] = c === "C" ? [7, 35] : [44.6, 95]
  temperature(b, "temperature", "Thermostat", c, ["temperature_state_topic", "temperature_state_template"], "temperature_command_topic", {
    [`${b.local("temperature")}_min`]: String(Option.getOrElse(numberOf(config, "min_temp"), () => min)),
    [`${b.local("temperature")}_max`]: String(Option.getOrElse(numberOf(config, "max_temp"), () => max))
  })
  text(b, "mode", "mode", ["mode_state_topic", "mode_state_template"], "mode_command_topic")
}

/** An `event` entity: each message's `event_type` is an action. */
const eventEntity = (b: Builder) =>
  b.add(
    "",
    discoveryExtension("action", "String"),
    b.reading("state_topic", "value_template", (text) =>
      Option.flatMap(jsonObject(text), (json) => typeof json["event_type"] === "string" ? Option.some({ _tag: "String", value: json["event_type"] } as Value) : Option.none())),
    Option.none(),
    { event: true }
  )

/** A `device_automation` trigger: a message on its `topic` (equal to its `payload`, if it has one) is an action. */
const triggerEntity = (b: Builder, config: Config) => {
  const payload = textOf(config, "payload")
  b.add(
    "",
    discoveryExtension("action", "String"),
    b.reading("topic", "value_template", (text) =>
      Option.isNone(payload) || payload.value === text ? Option.some({ _tag: "String", value: text }) : Option.none()),
    Option.none(),
    { event: true }
  )
}

/** Which topic an entity of each component needs at least, to be of any use. */
const needs: Readonly<Record<string, ReadonlyArray<string>>> = {
  switch: ["command_topic"],
  lock: ["command_topic"],
  binary_sensor: ["state_topic"],
  sensor: ["state_topic"],
  button: ["command_topic"],
  light: ["command_topic"],
  cover: [],
  climate: [],
  event: ["state_topic"],
  device_automation: ["topic"]
}

/** The points of an entity of `component`, or why it cannot be used. */
export const mapEntity = (component: string, objectId: string, config: Config): Result.Result<MappedEntity, string> => {
  const required = needs[component]
  if (required === undefined) return Result.fail(`the component ${component} is not one the gateway reads`)
  const missing = required.filter((key) => Option.isNone(topicOf(config, key)))
  if (missing.length > 0) return Result.fail(`it has no ${missing.join(", ")}`)
  const b = entityBuilder(config, `${component}.${objectId}`)
  switch (component) {
    case "switch":
      switchEntity(b, config)
      break
    case "lock":
      lockEntity(b, config)
      break
    case "binary_sensor":
      binarySensorEntity(b, config)
      break
    case "sensor":
      sensorEntity(b, config, objectId)
      break
    case "button":
      buttonEntity(b, config)
      break
    case "light":
      if (config["schema"] === "json") jsonLight(b, config)
      else defaultLight(b, config)
      break
    case "cover":
      coverEntity(b, config)
      break
    case "climate":
      climateEntity(b, config)
      break
    case "event":
      eventEntity(b)
      break
    case "device_automation":
      if (config["automation_type"] !== "trigger") return Result.fail(`its automation_type is not trigger`)
      triggerEntity(b, config)
      break
  }
  if (b.points.length === 0 && b.unsupported.length === 0) return Result.fail("it has no topic the gateway reads or writes")
  return Result.succeed({ points: b.points, unsupported: b.unsupported })
}
