import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { AdapterId, ChannelId } from "../../domain/Identifier.ts"
import type { Kind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import type { ValueType } from "../../domain/ValueType.ts"
import { accessBits, type Expose } from "./BridgeMessages.ts"

/** A device's state JSON, as Zigbee2MQTT publishes it on `<base>/<friendly_name>`. */
export type State = Readonly<Record<string, unknown>>

export const zigbee2mqttAdapterId = AdapterId.make("zigbee2mqtt@gateway.local")
/** The vendor and the `@…` suffix of ids of the Zigbee2MQTT adapter. */
export const zigbee2mqttVendor = "zigbee2mqtt"

/** One thing a device reads or accepts, and how its value sits in the device's state JSON. */
export interface Point {
  /** The state key(s) it reads, as asked for with `/get`. */
  readonly properties: ReadonlyArray<string>
  readonly kind: Kind
  readonly getter: Option.Option<ChannelId>
  readonly setter: Option.Option<ChannelId>
  /** Whether Zigbee2MQTT answers a `/get` for it. */
  readonly gettable: boolean
  /** Whether its values are events (a button's `action`): each one is news, and none is a lasting state. */
  readonly event: boolean
  /** What it adds to its service's properties (the range of a setter, which a channel cannot carry). */
  readonly describes: Readonly<Record<string, string>>
  /** The value in a state message, if the message holds one. */
  readonly read: (state: State) => Option.Option<Value>
  /** The part of a `/set` message that writes `value` (already checked to be of the kind's type), or why the device cannot take it. */
  readonly write: (value: Value) => Result.Result<State, string>
}

/** The texts of a device's ids, which may not make ids (docs/reference.md §1): DeviceScreening.ts checks them first. */
export const getterText = (ieee: string, local: string) => `getter:${ieee}.${local}@${zigbee2mqttVendor}`
export const serviceText = (ieee: string) => `service:${ieee}@${zigbee2mqttVendor}`

export const getterId = (ieee: string, local: string) => ChannelId.make(getterText(ieee, local))
export const setterId = (ieee: string, local: string) => ChannelId.make(`setter:${ieee}.${local}@${zigbee2mqttVendor}`)

export const has = (expose: Expose, bit: number) => ((expose.access ?? 0) & bit) !== 0
export const readable = (expose: Expose) => has(expose, accessBits.published) || has(expose, accessBits.get)
/** Whether the expose shows as a channel at all: it is published, asked for, or written. */
export const usable = (expose: Expose) => readable(expose) || has(expose, accessBits.set)

/** The getter and setter ids, and `/get`, of an expose holding `local`, as its access says. */
export const channelsOf = (ieee: string, local: string, expose: Expose) => ({
  getter: readable(expose) ? Option.some(getterId(ieee, local)) : Option.none(),
  setter: has(expose, accessBits.set) ? Option.some(setterId(ieee, local)) : Option.none(),
  gettable: has(expose, accessBits.get)
})

export const vendorOf = (property: string) => ({ vendor: zigbee2mqttVendor, adapter: zigbee2mqttAdapterId, kind: property })

export const extension = (property: string, type: ValueType): Kind => ({ _tag: "Extension", ...vendorOf(property), type })

export const numberIn = (state: State, key: string): Option.Option<number> => {
  const raw = state[key]
  return typeof raw === "number" && Number.isFinite(raw) ? Option.some(raw) : Option.none()
}

/** A write of a value the point's kind does not take (the home changed while it was in flight). */
export const wrongType = (property: string, expected: ValueType, value: Value): Result.Result<State, string> =>
  Result.fail(`Zigbee2MQTT's ${property} takes ${expected} values, not ${value._tag}`)
