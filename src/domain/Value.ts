import * as Schema from "effect/Schema"

const Finite = Schema.Finite
const UnitInterval = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 }))
const Byte = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))
const Vendor = { vendor: Schema.String, adapter: Schema.String, kind: Schema.String }

/**
 * A value a channel produces or accepts. The `_tag` names its type (docs/reference.md §2).
 * Canonical forms: Duration in seconds (>= 0), TimeStamp in milliseconds since the epoch (UTC),
 * Temperature in the unit it was given (compared in Celsius), Color hue in [0, 360).
 */
export const Value = Schema.TaggedUnion({
  Unit: {},
  OnOff: { state: Schema.Literals(["On", "Off"]) },
  OpenClosed: { state: Schema.Literals(["Open", "Closed"]) },
  DoorLocked: { state: Schema.Literals(["Locked", "Unlocked"]) },
  Duration: { seconds: Finite.check(Schema.isGreaterThanOrEqualTo(0)) },
  TimeStamp: { epochMillis: Schema.Int },
  Temperature: { unit: Schema.Literals(["C", "F"]), degrees: Finite },
  Color: {
    h: Finite.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThan(360)),
    s: UnitInterval,
    v: UnitInterval
  },
  String: { value: Schema.String },
  Json: { value: Schema.Json },
  Binary: { data: Schema.Array(Byte), mimetype: Schema.String },
  ExtBool: { value: Schema.Boolean, ...Vendor },
  ExtNumeric: { value: Finite, ...Vendor }
})
export type Value = typeof Value.Type

/** The schema's structural equality: Json and Binary compared deeply, Json keys in any order. */
const equalBySchema: (a: Value, b: Value) => boolean = Schema.toEquivalence(Value)

/**
 * Structural equality of two values (Json and Binary compared deeply, Json keys in any order). Every read
 * and every write that drives a getter compares the value taken with the last one: the types of a few
 * fields are compared here one by one, as the schema's equality does once it has checked both values
 * against the union (a law holds the two together); Json and Binary, which nest, are left to it.
 */
export const valueEquals = (a: Value, b: Value): boolean => {
  switch (a._tag) {
    case "Unit":
      return b._tag === "Unit"
    case "OnOff":
      return b._tag === "OnOff" && a.state === b.state
    case "OpenClosed":
      return b._tag === "OpenClosed" && a.state === b.state
    case "DoorLocked":
      return b._tag === "DoorLocked" && a.state === b.state
    case "Duration":
      return b._tag === "Duration" && a.seconds === b.seconds
    case "TimeStamp":
      return b._tag === "TimeStamp" && a.epochMillis === b.epochMillis
    case "Temperature":
      return b._tag === "Temperature" && a.unit === b.unit && a.degrees === b.degrees
    case "Color":
      return b._tag === "Color" && a.h === b.h && a.s === b.s && a.v === b.v
    case "String":
      return b._tag === "String" && a.value === b.value
    case "ExtBool":
      return b._tag === "ExtBool" && a.value === b.value && a.vendor === b.vendor && a.adapter === b.adapter && a.kind === b.kind
    case "ExtNumeric":
      return b._tag === "ExtNumeric" && a.value === b.value && a.vendor === b.vendor && a.adapter === b.adapter && a.kind === b.kind
    case "Json":
    case "Binary":
      return equalBySchema(a, b)
  }
}

export const celsius = (t: Extract<Value, { _tag: "Temperature" }>): number =>
  t.unit === "C" ? t.degrees : (t.degrees - 32) * 5 / 9
