import type * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { AdapterId, ChannelId, ServiceId } from "../../domain/Identifier.ts"
import type { Kind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import type { ValueType } from "../../domain/ValueType.ts"

/** One channel of a discovered entity, and the topics it is read from and written to. */

export const discoveryAdapterId = AdapterId.make("mqtt-discovery@gateway.local")
/** The vendor and the `@…` suffix of ids of the MQTT discovery adapter. */
export const discoveryVendor = "mqtt-discovery"

export interface Reading {
  readonly topic: string
  /** The value a message on `topic` says, if it says one. */
  readonly read: (payload: string) => Option.Option<Value>
}

export interface Writing {
  readonly topic: string
  /** The payload that writes `value`, or why the device cannot take it. */
  readonly write: (value: Value) => Result.Result<string, string>
}

export interface DiscoveryPoint {
  /** The channel's name within its device: `<component>.<object_id>`, and a part for a light's brightness… */
  readonly local: string
  readonly kind: Kind
  readonly reading: Option.Option<Reading>
  readonly writing: Option.Option<Writing>
  /** Its values are events (a button's action): each one is news, none is a lasting state. */
  readonly event: boolean
  /** What it adds to its service's properties (a unit, a range). */
  readonly describes: Readonly<Record<string, string>>
}

const channelText = (mechanism: "getter" | "setter", device: string, local: string) => `${mechanism}:${device}.${local}@${discoveryVendor}`
const serviceText = (device: string) => `service:${device}@${discoveryVendor}`

export const discoveryGetterId = (device: string, local: string) => ChannelId.make(channelText("getter", device, local))
export const discoverySetterId = (device: string, local: string) => ChannelId.make(channelText("setter", device, local))
export const discoveryServiceId = (device: string) => ServiceId.make(serviceText(device))

const isChannelId = Schema.is(ChannelId)
const isServiceId = Schema.is(ServiceId)

/** Whether a device's id and its points' make ids (an identifier a device sends may be too long, or hold control characters). */
export const makesIds = (device: string, points: ReadonlyArray<DiscoveryPoint>): boolean =>
  isServiceId(serviceText(device)) && points.every((point) => isChannelId(channelText("getter", device, point.local)) && isChannelId(channelText("setter", device, point.local)))

/** The vendor fields of an extension kind or value of the adapter. */
export const vendorOf = (kind: string) => ({ vendor: discoveryVendor, adapter: discoveryAdapterId, kind })

export const discoveryExtension = (kind: string, type: ValueType): Kind => ({ _tag: "Extension", ...vendorOf(kind), type })

/** A write of a value the point's kind does not take (the home changed while it was in flight). */
export const wrongValue = (local: string, expected: ValueType, value: Value): Result.Result<string, string> =>
  Result.fail(`MQTT discovery's ${local} takes ${expected} values, not ${value._tag}`)
