import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { Value } from "../../domain/Value.ts"
import { readState } from "./BridgeMessages.ts"
import { type Builder, commandedTwoState, entityBuilder, isFahrenheit, numeric, onOff, temperature, text, twoState } from "./DiscoveryChannels.ts"
import { type Config, numberOf, textOf, textOr, topicOf } from "./DiscoveryConfig.ts"
import { defaultLight, jsonLight } from "./DiscoveryLights.ts"
import { discoveryExtension, type DiscoveryPoint, vendorOf, wrongValue } from "./DiscoveryPoint.ts"

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

/** `binary_sensor` device classes whose `on` means open. */
const openingClasses = new Set(["door", "garage_door", "opening", "window"])

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
  text(b, "mode", "mode", ["mode_state_topic", "mode_state_template"], "mode_command_topic", textsOf(config, "modes", defaultModes))
}

/** Home Assistant's modes of a climate entity whose config lists none. */
const defaultModes = ["auto", "off", "cool", "heat", "dry", "fan_only"]

/** A config option that lists texts (a climate's `modes`), else `fallback`. */
const textsOf = (config: Config, key: string, fallback: ReadonlyArray<string>): ReadonlyArray<string> => {
  const list = config[key]
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : fallback
}

/** An `event` entity: each message's `event_type` is an action, one of its `event_types` (as Home Assistant, which drops the others). */
const eventEntity = (b: Builder, config: Config) => {
  const types = textsOf(config, "event_types", [])
  b.add(
    "",
    discoveryExtension("action", "String"),
    b.reading("state_topic", "value_template", (text) =>
      Option.flatMap(readState(text), (json) => {
        const type = json["event_type"]
        return typeof type === "string" && types.includes(type) ? Option.some({ _tag: "String", value: type } as Value) : Option.none()
      })),
    Option.none(),
    { event: true }
  )
}

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
      eventEntity(b, config)
      break
    case "device_automation":
      if (config["automation_type"] !== "trigger") return Result.fail(`its automation_type is not trigger`)
      triggerEntity(b, config)
      break
  }
  if (b.points.length === 0 && b.unsupported.length === 0) return Result.fail("it has no topic the gateway reads or writes")
  return Result.succeed({ points: b.points, unsupported: b.unsupported })
}
