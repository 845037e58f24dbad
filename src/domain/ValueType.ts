import * as Schema from "effect/Schema"

/** The names of the value types of docs/reference.md §2. A Value's `_tag` is its type. */
export const valueTypes = [
  "Unit",
  "OnOff",
  "OpenClosed",
  "DoorLocked",
  "Duration",
  "TimeStamp",
  "Temperature",
  "Color",
  "String",
  "Json",
  "Binary",
  "ExtBool",
  "ExtNumeric"
] as const

export const ValueType = Schema.Literals(valueTypes)
export type ValueType = typeof ValueType.Type
