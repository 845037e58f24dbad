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

/** Structural equality of two values (Json and Binary compared deeply, Json keys in any order). */
export const valueEquals: (a: Value, b: Value) => boolean = Schema.toEquivalence(Value)

export const celsius = (t: Extract<Value, { _tag: "Temperature" }>): number =>
  t.unit === "C" ? t.degrees : (t.degrees - 32) * 5 / 9
