import { ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
import type { BuiltinKindName, Kind } from "../domain/Kind.ts"
import type { Value } from "../domain/Value.ts"

/**
 * The model's values as an app writes them: identifiers from plain strings, kinds and values from their
 * names, each typed as narrowly as it is, so that a value hoisted into a constant keeps its type.
 */

/** A tag, checked: `tag("light")`. */
export const tag = (name: string): Tag => Tag.make(name)

/** A channel's id, checked: `channelId("getter:hall-light-on@sim")`. */
export const channelId = (id: string): ChannelId => ChannelId.make(id)

/** A service's id, checked: `serviceId("service:hall-light@sim")`. */
export const serviceId = (id: string): ServiceId => ServiceId.make(id)

/** A built-in kind: `kind("OnOff")`, for `exactly(kind("OnOff"))` in a selector. */
export const kind = <const N extends BuiltinKindName>(name: N): Extract<Kind, { _tag: "Builtin" }> & { readonly name: N } => ({ _tag: "Builtin", name })

/** A value of one type (`ValueOf<"OnOff">`: `{ _tag: "OnOff", state: "On" | "Off" }`). */
export type ValueOf<T extends Value["_tag"]> = Extract<Value, { readonly _tag: T }>

export const onOff = (state: ValueOf<"OnOff">["state"]): ValueOf<"OnOff"> => ({ _tag: "OnOff", state })
export const openClosed = (state: ValueOf<"OpenClosed">["state"]): ValueOf<"OpenClosed"> => ({ _tag: "OpenClosed", state })
export const doorLocked = (state: ValueOf<"DoorLocked">["state"]): ValueOf<"DoorLocked"> => ({ _tag: "DoorLocked", state })
export const celsius = (degrees: number): ValueOf<"Temperature"> => ({ _tag: "Temperature", unit: "C", degrees })
export const fahrenheit = (degrees: number): ValueOf<"Temperature"> => ({ _tag: "Temperature", unit: "F", degrees })
/** A duration in seconds. */
export const seconds = (seconds: number): ValueOf<"Duration"> => ({ _tag: "Duration", seconds })
/** A moment: a `Date`, or milliseconds since the epoch. */
export const timeStamp = (at: Date | number): ValueOf<"TimeStamp"> => ({ _tag: "TimeStamp", epochMillis: Number(at) })
/** A colour: hue in [0, 360), saturation and value in [0, 1]. */
export const color = (h: number, s: number, v: number): ValueOf<"Color"> => ({ _tag: "Color", h, s, v })
export const text = (value: string): ValueOf<"String"> => ({ _tag: "String", value })
/** The value of a `Ready` or `TakeSnapshot` setter: no data, the act itself. */
export const unit: ValueOf<"Unit"> = { _tag: "Unit" }
