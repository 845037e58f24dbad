import { Option } from "effect"
import { AdapterId, ChannelId, ServiceId } from "../../domain/Identifier.ts"
import { builtinKind, type Kind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import type { ChannelDescription, ServiceDescription } from "../../gateway/Adapter.ts"
import { accessBits, type BridgeDevice, type Expose } from "./BridgeMessages.ts"

/**
 * How a Zigbee2MQTT device's exposes become channels (the table in docs/adapters/mqtt.md). Pure: a
 * device description in, the service and its points out. Ids come from the IEEE address, which a
 * device keeps for life, so that renaming it in Zigbee2MQTT keeps its tags.
 */

export const zigbee2mqttAdapterId = AdapterId.make("zigbee2mqtt@gateway.local")
/** The vendor and the `@…` suffix of ids of the Zigbee2MQTT adapter. */
export const zigbee2mqttVendor = "zigbee2mqtt"

type State = Readonly<Record<string, unknown>>

/** One thing a device reads or accepts, and how its value sits in the device's state JSON. */
export interface Point {
  /** The state key(s) it reads, as asked for with `/get`. */
  readonly properties: ReadonlyArray<string>
  readonly kind: Kind
  readonly getter: Option.Option<ChannelId>
  readonly setter: Option.Option<ChannelId>
  /** Whether Zigbee2MQTT answers a `/get` for it. */
  readonly gettable: boolean
  /** The value in a state message, if the message holds one. */
  readonly read: (state: State) => Option.Option<Value>
  /** The part of a `/set` message that writes `value` (already checked to be of the kind's type). */
  readonly write: (value: Value) => State
}

export interface MappedDevice {
  readonly ieee: string
  readonly friendlyName: string
  readonly service: ServiceDescription
  readonly points: ReadonlyArray<Point>
}

export const serviceIdOf = (ieee: string) => ServiceId.make(`service:${ieee}@${zigbee2mqttVendor}`)
const getterId = (ieee: string, local: string) => ChannelId.make(`getter:${ieee}.${local}@${zigbee2mqttVendor}`)
const setterId = (ieee: string, local: string) => ChannelId.make(`setter:${ieee}.${local}@${zigbee2mqttVendor}`)

const has = (expose: Expose, bit: number) => ((expose.access ?? 0) & bit) !== 0
const readable = (expose: Expose) => has(expose, accessBits.published) || has(expose, accessBits.get)

const numberIn = (state: State, key: string): Option.Option<number> => {
  const raw = state[key]
  return typeof raw === "number" && Number.isFinite(raw) ? Option.some(raw) : Option.none()
}

/** A binary feature's value as true (`value_on`) or false (`value_off`). */
const binaryIn = (expose: Expose, state: State, key: string): Option.Option<boolean> => {
  if (!(key in state)) return Option.none()
  const raw = state[key]
  return raw === expose.value_on ? Option.some(true) : raw === expose.value_off ? Option.some(false) : Option.none()
}

const vendorOf = (property: string) => ({ vendor: zigbee2mqttVendor, adapter: zigbee2mqttAdapterId, kind: property })

const extension = (property: string, type: "ExtBool" | "ExtNumeric"): Kind => ({ _tag: "Extension", ...vendorOf(property), type })

const fahrenheit = (unit: string | undefined) => unit === "°F" || unit === "F"

/** A feature holding one state key (`binary` or `numeric`), as the kind its property and parent say. */
const featurePoint = (ieee: string, parent: string | undefined, expose: Expose): Option.Option<Point> => {
  const property = expose.property
  if (property === undefined || !(readable(expose) || has(expose, accessBits.set))) return Option.none()
  const point = (kind: Kind, read: Point["read"], write: Point["write"]): Point => ({
    properties: [property],
    kind,
    getter: readable(expose) ? Option.some(getterId(ieee, property)) : Option.none(),
    setter: has(expose, accessBits.set) ? Option.some(setterId(ieee, property)) : Option.none(),
    gettable: has(expose, accessBits.get),
    read,
    write
  })
  /** A binary feature as a two-state kind: `value_on` is `on`, `value_off` the other state. */
  const twoState = (kind: "OnOff" | "OpenClosed" | "DoorLocked", on: string, off: string) =>
    point(
      builtinKind(kind),
      (state) => Option.map(binaryIn(expose, state, property), (b) => ({ _tag: kind, state: b ? on : off }) as Value),
      (value) => ({ [property]: value._tag === kind && value.state === on ? expose.value_on : expose.value_off })
    )
  if (expose.type === "binary") {
    // Zigbee2MQTT's contact is `true` when closed: its value_on (false) is "open".
    if (property === "contact") return Option.some(twoState("OpenClosed", "Open", "Closed"))
    if (property === "state" && parent === "lock") return Option.some(twoState("DoorLocked", "Locked", "Unlocked"))
    if (property === "state" || property.startsWith("state_")) return Option.some(twoState("OnOff", "On", "Off"))
    return Option.some(point(
      extension(property, "ExtBool"),
      (state) => Option.map(binaryIn(expose, state, property), (value): Value => ({ _tag: "ExtBool", value, ...vendorOf(property) })),
      (value) => ({ [property]: value._tag === "ExtBool" && value.value ? expose.value_on : expose.value_off })
    ))
  }
  if (expose.type === "numeric") {
    const unit = fahrenheit(expose.unit) ? "F" as const : "C" as const
    const temperature = (kind: Kind) =>
      point(
        kind,
        (state) => Option.map(numberIn(state, property), (degrees): Value => ({ _tag: "Temperature", unit, degrees })),
        (value) => {
          if (value._tag !== "Temperature") return {}
          const degrees = value.unit === unit ? value.degrees : unit === "C" ? (value.degrees - 32) * 5 / 9 : value.degrees * 9 / 5 + 32
          return { [property]: degrees }
        }
      )
    if (property === "temperature" || property === "local_temperature") return Option.some(temperature(builtinKind("ActualTemperature")))
    if (property === "current_heating_setpoint" || property === "occupied_heating_setpoint") {
      return Option.some(temperature(builtinKind("Thermostat")))
    }
    return Option.some(point(
      extension(property, "ExtNumeric"),
      (state) => Option.map(numberIn(state, property), (value): Value => ({ _tag: "ExtNumeric", value, ...vendorOf(property) })),
      (value) => ({ [property]: value._tag === "ExtNumeric" ? value.value : undefined })
    ))
  }
  return Option.none()
}

const brightnessMax = 254

/** `color_hs` (hue 0–360, saturation 0–100), with the light's brightness (0–254) as the value `v`. */
const colorPoint = (ieee: string, color: Expose, brightness: Expose | undefined): Option.Option<Point> => {
  const property = color.property ?? "color"
  if (!(readable(color) || has(color, accessBits.set))) return Option.none()
  const withBrightness = brightness?.property
  const clamp = (n: number) => Math.min(1, Math.max(0, n))
  return Option.some({
    properties: withBrightness === undefined ? [property] : [property, withBrightness],
    kind: builtinKind("LightColor"),
    getter: readable(color) ? Option.some(getterId(ieee, property)) : Option.none(),
    setter: has(color, accessBits.set) ? Option.some(setterId(ieee, property)) : Option.none(),
    gettable: has(color, accessBits.get),
    read: (state) => {
      const hs = state[property]
      if (typeof hs !== "object" || hs === null) return Option.none()
      const { hue, saturation } = hs as Readonly<Record<string, unknown>>
      if (typeof hue !== "number" || typeof saturation !== "number") return Option.none()
      const level = withBrightness === undefined ? Option.some(brightnessMax) : numberIn(state, withBrightness)
      return Option.some({
        _tag: "Color",
        h: ((hue % 360) + 360) % 360,
        s: clamp(saturation / 100),
        v: clamp(Option.getOrElse(level, () => brightnessMax) / brightnessMax)
      })
    },
    write: (value) => {
      if (value._tag !== "Color") return {}
      const hs = { [property]: { hue: value.h, saturation: value.s * 100 } }
      return withBrightness === undefined ? hs : { ...hs, [withBrightness]: Math.round(value.v * brightnessMax) }
    }
  })
}

/** Every point of a list of exposes, the features of specific exposes (light, lock, climate…) included. */
const pointsOf = (ieee: string, exposes: ReadonlyArray<Expose>, parent: string | undefined): Array<Point> => {
  const color = exposes.find((e) => e.type === "composite" && e.name === "color_hs")
  const brightness = color === undefined ? undefined : exposes.find((e) => e.type === "numeric" && e.property === "brightness")
  return exposes.flatMap((expose): Array<Point> => {
    if (expose === color) return Option.toArray(colorPoint(ieee, expose, brightness))
    if (expose === brightness) return []
    if (expose.type === "composite" || expose.type === "list") return []
    if (expose.features !== undefined) return pointsOf(ieee, expose.features, expose.type)
    return Option.toArray(featurePoint(ieee, parent, expose))
  })
}

const channel = (id: ChannelId, kind: Kind): ChannelDescription => ({ id, kind, tags: [], pushMs: 0 })

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
  return Option.some({
    ieee: device.ieee_address,
    friendlyName: device.friendly_name,
    points,
    service: {
      id: serviceIdOf(device.ieee_address),
      tags: [],
      properties,
      getters: points.flatMap((p) => Option.toArray(Option.map(p.getter, (id) => channel(id, p.kind)))),
      setters: points.flatMap((p) => Option.toArray(Option.map(p.setter, (id) => channel(id, p.kind))))
    }
  })
}
