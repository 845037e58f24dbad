import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { ServiceId } from "../../domain/Identifier.ts"
import { builtinKind, type Kind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import type { ChannelDescription, ServiceDescription } from "../../gateway/Adapter.ts"
import { accessBits, type BridgeDevice, type Expose } from "./BridgeMessages.ts"
import { colorExposeNames, colorPoint } from "./ColorExposes.ts"
import { boundedProperties } from "./DeviceText.ts"
import { channelsOf, extension, has, numberIn, type Point, serviceText, type State, usable, vendorOf, wrongType } from "./Point.ts"

/**
 * How a Zigbee2MQTT device's exposes become channels (the table in docs/adapters/mqtt.md). Pure: a
 * device description in, the service and its points out. Ids come from the IEEE address, which a
 * device keeps for life, so that renaming it in Zigbee2MQTT keeps its tags.
 */

export interface MappedDevice {
  readonly ieee: string
  readonly friendlyName: string
  readonly service: ServiceDescription
  readonly points: ReadonlyArray<Point>
}

export const serviceIdOf = (ieee: string) => ServiceId.make(serviceText(ieee))

/** A binary feature's value as true (`value_on`) or false (`value_off`). */
const binaryIn = (expose: Expose, state: State, key: string): Option.Option<boolean> => {
  if (!(key in state)) return Option.none()
  const raw = state[key]
  return raw === expose.value_on ? Option.some(true) : raw === expose.value_off ? Option.some(false) : Option.none()
}

const fahrenheit = (unit: string | undefined) => unit === "°F" || unit === "F"

/** The properties an action is published under: a button's presses, events rather than states. */
const isAction = (property: string) => property === "action"

/** A settable number's range, for clients to write within it (a channel carries no range). */
const rangeOf = (property: string, expose: Expose): Record<string, string> => {
  if (!has(expose, accessBits.set)) return {}
  const bounds: Record<string, string> = {}
  if (expose.value_min !== undefined) bounds[`${property}_min`] = String(expose.value_min)
  if (expose.value_max !== undefined) bounds[`${property}_max`] = String(expose.value_max)
  return bounds
}

/** An enum's or a text's value as a String: an enum's non-string values (rare) as their JSON text. */
const textIn = (state: State, key: string): Option.Option<string> => {
  const raw = state[key]
  return typeof raw === "string" ? Option.some(raw) : typeof raw === "number" || typeof raw === "boolean" ? Option.some(String(raw)) : Option.none()
}

/** A feature holding one state key (`binary`, `numeric`, `enum`, `text`, `list`), as the kind its property and parent say. */
const featurePoint = (ieee: string, parent: string | undefined, expose: Expose): Option.Option<Point> => {
  const property = expose.property
  if (property === undefined || !usable(expose)) return Option.none()
  const point = (kind: Kind, read: Point["read"], write: Point["write"], more: Partial<Pick<Point, "event" | "describes">> = {}): Point => ({
    properties: [property],
    kind,
    ...channelsOf(ieee, property, expose),
    event: false,
    describes: {},
    ...more,
    read,
    write
  })
  /** A binary feature as a two-state kind: `value_on` is `on`, `value_off` the other state. */
  const twoState = (kind: "OnOff" | "OpenClosed" | "DoorLocked", on: string, off: string) =>
    point(
      builtinKind(kind),
      (state) => Option.map(binaryIn(expose, state, property), (b) => ({ _tag: kind, state: b ? on : off }) as Value),
      (value) =>
        value._tag === kind ? Result.succeed({ [property]: value.state === on ? expose.value_on : expose.value_off }) : wrongType(property, kind, value)
    )
  switch (expose.type) {
    case "binary": {
      // Zigbee2MQTT's contact is `true` when closed: its value_on (false) is "open".
      if (property === "contact") return Option.some(twoState("OpenClosed", "Open", "Closed"))
      if (property === "state" && parent === "lock") return Option.some(twoState("DoorLocked", "Locked", "Unlocked"))
      if (property === "state" || property.startsWith("state_")) return Option.some(twoState("OnOff", "On", "Off"))
      return Option.some(point(
        extension(property, "ExtBool"),
        (state) => Option.map(binaryIn(expose, state, property), (value): Value => ({ _tag: "ExtBool", value, ...vendorOf(property) })),
        (value) =>
          value._tag === "ExtBool" ? Result.succeed({ [property]: value.value ? expose.value_on : expose.value_off }) : wrongType(property, "ExtBool", value)
      ))
    }
    case "numeric": {
      const unit = fahrenheit(expose.unit) ? "F" as const : "C" as const
      const temperature = (kind: Kind) =>
        point(
          kind,
          (state) => Option.map(numberIn(state, property), (degrees): Value => ({ _tag: "Temperature", unit, degrees })),
          (value) => {
            if (value._tag !== "Temperature") return wrongType(property, "Temperature", value)
            const degrees = value.unit === unit ? value.degrees : unit === "C" ? (value.degrees - 32) * 5 / 9 : value.degrees * 9 / 5 + 32
            return Result.succeed({ [property]: degrees })
          },
          { describes: rangeOf(property, expose) }
        )
      if (property === "temperature" || property === "local_temperature") return Option.some(temperature(builtinKind("ActualTemperature")))
      if (property === "current_heating_setpoint" || property === "occupied_heating_setpoint") {
        return Option.some(temperature(builtinKind("Thermostat")))
      }
      return Option.some(point(
        extension(property, "ExtNumeric"),
        (state) => Option.map(numberIn(state, property), (value): Value => ({ _tag: "ExtNumeric", value, ...vendorOf(property) })),
        (value) => (value._tag === "ExtNumeric" ? Result.succeed({ [property]: value.value }) : wrongType(property, "ExtNumeric", value)),
        { describes: rangeOf(property, expose) }
      ))
    }
    case "enum":
    case "text": {
      const values = expose.type === "enum" ? expose.values ?? [] : undefined
      const event = isAction(property)
      return Option.some(point(
        extension(property, "String"),
        // An action of "" is Zigbee2MQTT clearing the last one (its legacy behaviour), not a press.
        (state) => Option.map(Option.filter(textIn(state, property), (text) => !(event && text === "")), (value): Value => ({ _tag: "String", value })),
        (value) => {
          if (value._tag !== "String") return wrongType(property, "String", value)
          if (values === undefined) return Result.succeed({ [property]: value.value })
          // An enum takes one of its values, sent as the expose writes it (a number stays a number).
          const chosen = values.find((v) => String(v) === value.value)
          return chosen === undefined
            ? Result.fail(`Zigbee2MQTT's ${property} takes one of ${values.map(String).join(", ")}, not "${value.value}"`)
            : Result.succeed({ [property]: chosen })
        },
        { event }
      ))
    }
    case "list":
      return Option.some(point(
        extension(property, "Json"),
        (state) => (property in state && state[property] !== undefined ? Option.some({ _tag: "Json", value: state[property] } as Value) : Option.none()),
        (value) => (value._tag === "Json" ? Result.succeed({ [property]: value.value }) : wrongType(property, "Json", value))
      ))
    default:
      return Option.none()
  }
}

/** Every point of a list of exposes, the features of specific exposes (light, lock, climate…) included. */
const pointsOf = (ieee: string, exposes: ReadonlyArray<Expose>, parent: string | undefined): Array<Point> => {
  const color = colorExposeNames.flatMap((name) => exposes.filter((e) => e.type === "composite" && e.name === name))[0]
  const brightness = color === undefined ? undefined : exposes.find((e) => e.type === "numeric" && e.property === "brightness")
  return exposes.flatMap((expose): Array<Point> => {
    if (expose === color) return Option.toArray(colorPoint(ieee, expose, brightness))
    if (expose === brightness) return []
    if (expose.type === "composite") return []
    if (expose.features !== undefined) return pointsOf(ieee, expose.features, expose.type)
    return Option.toArray(featurePoint(ieee, parent, expose))
  })
}

const channel = (id: ChannelDescription["id"], kind: Kind): ChannelDescription => ({ id, kind, tags: [], pushMs: 0 })

/**
 * The service for a device of `bridge/devices`, or `None` for what is not a device one can use: the
 * coordinator, a disabled device, one not (yet) interviewed (no definition).
 */
export const mapDevice = (device: BridgeDevice): Option.Option<MappedDevice> => {
  const definition = device.definition
  if (device.type === "Coordinator" || device.disabled === true || definition === undefined || definition === null) {
    return Option.none()
  }
  const seen = new Set<string>()
  const points = pointsOf(device.ieee_address, definition.exposes, undefined).filter((p) => {
    const key = p.properties[0] ?? ""
    return !seen.has(key) && (seen.add(key), true)
  })
  const properties: Record<string, string> = { name: device.friendly_name, ieee_address: device.ieee_address }
  if (typeof definition.model === "string") properties["model"] = definition.model
  if (typeof definition.vendor === "string") properties["vendor"] = definition.vendor
  if (typeof definition.description === "string") properties["description"] = definition.description
  for (const point of points) Object.assign(properties, point.describes)
  return Option.some({
    ieee: device.ieee_address,
    friendlyName: device.friendly_name,
    points,
    service: {
      id: serviceIdOf(device.ieee_address),
      tags: [],
      properties: boundedProperties(properties),
      getters: points.flatMap((p) => Option.toArray(Option.map(p.getter, (id) => channel(id, p.kind)))),
      setters: points.flatMap((p) => Option.toArray(Option.map(p.setter, (id) => channel(id, p.kind))))
    }
  })
}
