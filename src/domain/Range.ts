import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { celsius, type Value, Value as ValueSchema, valueEquals } from "./Value.ts"

/**
 * A range of values, for watching (docs/reference.md §7). Its type is the type of its bounds;
 * a value of another type is never contained.
 */
export const Range = Schema.TaggedUnion({
  Eq: { value: ValueSchema },
  Leq: { value: ValueSchema },
  Geq: { value: ValueSchema },
  BetweenEq: { low: ValueSchema, high: ValueSchema },
  OutOfStrict: { low: ValueSchema, high: ValueSchema }
})
export type Range = typeof Range.Type

type TwoState = Extract<Value, { readonly _tag: "OnOff" | "OpenClosed" | "DoorLocked" }>["state"]
const stateOrder: Readonly<Record<TwoState, number>> = { Off: 0, On: 1, Closed: 0, Open: 1, Unlocked: 0, Locked: 1 }

/**
 * Orders two values of the same type: a number < 0, 0 or > 0, or `None` where the type has no order
 * (Color, Json, Binary; and extension values of different vendor/adapter/kind).
 * Two-state types order as Off < On, Closed < Open, Unlocked < Locked.
 */
export const compareValues = (a: Value, b: Value): Option.Option<number> => {
  switch (a._tag) {
    case "Unit":
      return b._tag === "Unit" ? Option.some(0) : Option.none()
    case "OnOff":
    case "OpenClosed":
    case "DoorLocked":
      return b._tag === a._tag ? Option.some(stateOrder[a.state] - stateOrder[b.state]) : Option.none()
    case "Duration":
      return b._tag === "Duration" ? Option.some(a.seconds - b.seconds) : Option.none()
    case "TimeStamp":
      return b._tag === "TimeStamp" ? Option.some(a.epochMillis - b.epochMillis) : Option.none()
    case "Temperature":
      return b._tag === "Temperature" ? Option.some(celsius(a) - celsius(b)) : Option.none()
    case "String":
      return b._tag === "String" ? Option.some(a.value < b.value ? -1 : a.value > b.value ? 1 : 0) : Option.none()
    case "ExtBool":
      return b._tag === "ExtBool" && sameExtension(a, b) ? Option.some(Number(a.value) - Number(b.value)) : Option.none()
    case "ExtNumeric":
      return b._tag === "ExtNumeric" && sameExtension(a, b) ? Option.some(a.value - b.value) : Option.none()
    case "Color":
    case "Json":
    case "Binary":
      return Option.none()
  }
}

const sameExtension = (
  a: { vendor: string; adapter: string; kind: string },
  b: { vendor: string; adapter: string; kind: string }
): boolean => a.vendor === b.vendor && a.adapter === b.adapter && a.kind === b.kind

/** `Eq` on an unordered type falls back to structural equality. */
const equal = (a: Value, b: Value): boolean =>
  Option.match(compareValues(a, b), { onNone: () => valueEquals(a, b), onSome: (c) => c === 0 })

const holds = (order: Option.Option<number>, test: (c: number) => boolean): boolean =>
  Option.match(order, { onNone: () => false, onSome: test })

/** Whether `value` lies in `range`. Values of another type than the range's are never contained. */
export const contains = (range: Range, value: Value): boolean => {
  switch (range._tag) {
    case "Eq":
      return equal(value, range.value)
    case "Leq":
      return holds(compareValues(value, range.value), (c) => c <= 0)
    case "Geq":
      return holds(compareValues(value, range.value), (c) => c >= 0)
    case "BetweenEq":
      return holds(compareValues(value, range.low), (c) => c >= 0) &&
        holds(compareValues(value, range.high), (c) => c <= 0)
    case "OutOfStrict":
      return holds(compareValues(value, range.low), (c) => c < 0) ||
        holds(compareValues(value, range.high), (c) => c > 0)
  }
}
