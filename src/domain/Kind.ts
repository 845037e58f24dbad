import * as Schema from "effect/Schema"
import { ValueType } from "./ValueType.ts"

/** The built-in channel kinds of docs/reference.md §3 and the value type each carries. */
export const builtinKindTypes = {
  Ready: "Unit",
  TakeSnapshot: "Unit",
  OnOff: "OnOff",
  OpenClosed: "OpenClosed",
  DoorLocked: "DoorLocked",
  LightColor: "Color",
  CurrentTime: "TimeStamp",
  CurrentTimeOfDay: "Duration",
  RemainingTime: "Duration",
  Countdown: "Duration",
  CountEveryInterval: "Duration",
  Thermostat: "Temperature",
  ActualTemperature: "Temperature",
  OvenTemperature: "Temperature",
  Username: "String",
  Password: "String",
  Log: "String"
} as const satisfies Record<string, ValueType>

export type BuiltinKindName = keyof typeof builtinKindTypes
export const builtinKindNames = Object.keys(builtinKindTypes) as ReadonlyArray<BuiltinKindName>
export const isBuiltinKindName = (name: string): name is BuiltinKindName => Object.hasOwn(builtinKindTypes, name)

/** What a channel is for; it fixes the type of the values the channel carries. */
export const Kind = Schema.TaggedUnion({
  Builtin: { name: Schema.Literals(builtinKindNames) },
  Extension: { vendor: Schema.String, adapter: Schema.String, kind: Schema.String, type: ValueType }
})
export type Kind = typeof Kind.Type

export const builtinKind = (name: BuiltinKindName): Kind => ({ _tag: "Builtin", name })

export const kindValueType = (kind: Kind): ValueType =>
  kind._tag === "Builtin" ? builtinKindTypes[kind.name] : kind.type

/** A string that identifies a kind, equal for equal kinds: the key of the kind index. */
export const kindKey = (kind: Kind): string =>
  kind._tag === "Builtin" ? kind.name : JSON.stringify([kind.vendor, kind.adapter, kind.kind, kind.type])

export const kindEquals = (a: Kind, b: Kind): boolean =>
  a._tag === "Builtin"
    ? b._tag === "Builtin" && a.name === b.name
    : b._tag === "Extension" && a.vendor === b.vendor && a.adapter === b.adapter && a.kind === b.kind && a.type === b.type
