import type { Device, DeviceChannel } from "../api/Devices.ts"
import { kindEquals, kindValueType } from "../../domain/Kind.ts"

/**
 * What a device's card shows (docs/dashboard.md): a control for each setter, the first two-state one
 * (a light's switch, a lock) its main control, named after the device (the others are named by the
 * device and what they set: "Oven Timer"); a brightness slider for a light;
 * and, as readings, the getters no control shows already, so that a state is shown once.
 */

export interface CardControl {
  readonly setter: DeviceChannel
  /** The getter whose value the control shows: the service's one getter of the setter's kind, if it has exactly one. */
  readonly shows: DeviceChannel | undefined
  /** Whether this is the card's main control, named by the device alone; the others by the device and their kind. */
  readonly main: boolean
}

/** A light's brightness slider: on its brightness channel, or on its colour's brightness. */
export type Brightness =
  | { readonly _tag: "Channel"; readonly control: CardControl }
  | { readonly _tag: "ColourBrightness"; readonly control: CardControl }

export interface CardPlan {
  readonly controls: ReadonlyArray<CardControl>
  readonly brightness: Brightness | undefined
  readonly readings: ReadonlyArray<DeviceChannel>
}

const twoStates = new Set(["OnOff", "OpenClosed", "DoorLocked", "ExtBool"])

/** An extension's numeric `brightness` channel (a Zigbee2MQTT or MQTT-discovered light's). */
const isBrightness = (channel: DeviceChannel): boolean =>
  channel.kind._tag === "Extension" && channel.kind.kind === "brightness" && channel.kind.type === "ExtNumeric"

const isColour = (channel: DeviceChannel): boolean => kindValueType(channel.kind) === "Color"

/** The values a setter's control has no place for: a button's (Unit), and those with no control yet. */
const notShownByControls = new Set(["Unit", "TimeStamp", "Json", "Binary"])

/**
 * The getter a setter's control shows: the service's one getter of the same kind (the API does not say
 * which a setter drives), where the control shows a value.
 */
export const shownBy = (service: Device, setter: DeviceChannel): DeviceChannel | undefined => {
  if (notShownByControls.has(kindValueType(setter.kind))) return undefined
  const getters = service.getters.filter((getter) => kindEquals(getter.kind, setter.kind))
  return getters.length === 1 ? getters[0] : undefined
}

export const cardPlan = (service: Device): CardPlan => {
  const main = service.setters.find((setter) => twoStates.has(kindValueType(setter.kind)))
  // A getter is shown by one control only: the first setter of its kind (its state is shown once).
  const claimed = new Set<string>()
  const controls = service.setters.map((setter) => {
    const getter = shownBy(service, setter)
    const shows = getter === undefined || claimed.has(getter.id) ? undefined : getter
    if (shows !== undefined) claimed.add(shows.id)
    return { setter, shows, main: setter === main }
  })
  const channel = controls.find((control) => isBrightness(control.setter))
  const colour = controls.find((control) => isColour(control.setter))
  const brightness: Brightness | undefined = channel !== undefined
    ? { _tag: "Channel", control: channel }
    : colour !== undefined
    ? { _tag: "ColourBrightness", control: colour }
    : undefined
  return {
    controls: controls.filter((control) => control !== channel),
    brightness,
    readings: service.getters.filter((getter) => !claimed.has(getter.id))
  }
}
