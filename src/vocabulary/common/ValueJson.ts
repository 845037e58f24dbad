import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { identity } from "effect/Function"
import { Value } from "../../domain/Value.ts"
import { valueTypes } from "../../domain/ValueType.ts"
import { describeJson } from "./DescribeJson.ts"
import { DOCS } from "./Docs.ts"
import { isSimpleValueInput } from "./SimpleValueJson.ts"
import { TimestampJson } from "./TimestampJson.ts"
import { expectedGot, explainedBy, explainKeyed, keyedForm, keyedUnion, wireCheck } from "./WireSchema.ts"
import { fieldsOf, wireRecord } from "./WireRecord.ts"
import { annotated, plain, type Wire, type WirePart, wireShape } from "./WireShape.ts"

/**
 * Values on the wire, the same in both vocabularies (docs/reference.md §2): an object with exactly one key naming
 * the value's type, e.g. `{"OnOff": "On"}`. Each type's payload is a schema, mapped onto the domain's
 * Value; the union says which type a client meant when a value does not read.
 */
const knownTypes = valueTypes.join(", ")

/** A value type's name, as in an Extension kind's `type` or a TypeError's `expected` and `got`. */
export const ValueTypeJson = Schema.Literals(valueTypes).annotate({
  identifier: "ValueTypeName",
  description: DOCS ? "The name of a value type (docs/reference.md §2)." : "",
  ...explainedBy((input) =>
    typeof input === "string"
      ? `unknown value type ${JSON.stringify(input)} (known: ${knownTypes})`
      : `expected a value type name such as "OnOff", got ${describeJson(input)}`
  )
})

/**
 * Below 2^51 ms (about 71,000 years) rounding to the millisecond is exact and idempotent: `n / 1000 * 1000`
 * lands within half a unit of `n`. Above it a double barely holds milliseconds and rounding again could
 * move the value, so such durations are kept as they are.
 */
export const MAX_ROUNDED_DURATION_SECONDS = 2 ** 51 / 1000

const roundToMilliseconds = (seconds: number): number =>
  seconds >= MAX_ROUNDED_DURATION_SECONDS ? seconds : Math.round(seconds * 1000) / 1000

/** Hue in [0, 360): taken mod 360, negative hues too. A tiny negative hue that would round up to 360 is 0. */
const normalizeHue = (h: number): number => {
  const r = h % 360
  const positive = r < 0 ? r + 360 : r
  return positive >= 360 ? 0 : positive + 0
}

const Finite = Schema.Finite.annotate({ expected: "a number" })

/** A number as the model keeps it: `-0` reads as `0`, so that equal inputs give equal values. */
const plain0 = (n: number): number => n + 0

const UnitInterval = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 }, { message: "must be between 0 and 1" })).annotate({
  expected: "a number"
})

const Byte = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 })).annotate(
  explainedBy((input) => expectedGot("a byte (an integer from 0 to 255)", input))
)

/**
 * Json payloads may nest at most this deep. `JSON.parse` reads any depth, but `JSON.stringify` and
 * every recursive walk overflow the call stack near a few thousand levels: such a value, once accepted,
 * could never be answered or watched.
 */
export const MAX_JSON_DEPTH = 256

/** Whether `json` nests deeper than MAX_JSON_DEPTH arrays and objects. Walked with an explicit stack. */
const nestsTooDeep = (json: unknown): boolean => {
  const pending: Array<readonly [unknown, number]> = [[json, 0]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next
    if (item === null || typeof item !== "object") continue
    if (depth >= MAX_JSON_DEPTH) return true
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1])
  }
  return false
}

/**
 * Any JSON: `Schema.Json`'s own test, as a check rather than `Schema.Json` itself, a declaration, which
 * Effect's schema compiler cannot compile, nor then any body holding a value (read by the interpreter, a
 * write's body cost twice as much). Only an input not parsed from JSON text can fail it. On `Any` (typed as
 * the JSON it holds), since the JSON Schema of `Unknown` drops the description.
 */
const anyJson: Schema.Codec<Schema.Json> = Schema.Any
// The depth first: it stops at the first level past the limit, where `Schema.Json`'s test walks the whole value.
const JsonPayload = anyJson.check(
  wireCheck((json) => !nestsTooDeep(json) || `must not nest deeper than ${MAX_JSON_DEPTH} levels`)
).annotate({ description: DOCS ? `Any JSON, nested at most ${MAX_JSON_DEPTH} levels deep.` : "" })
  .pipe(Schema.refine(Schema.is(Schema.Json), { expected: "a JSON value" }))

const twoStates = <const S extends string>(states: readonly [S, S]) =>
  Schema.Literals(states).annotate({ expected: `"${states[0]}" or "${states[1]}"` })

const Celsius = Schema.Struct({ C: Finite })
const Fahrenheit = Schema.Struct({ F: Finite })
const temperatureExample = `a temperature such as {"C": 21.5} or {"F": 70.7}`

/** `{"C": 21.5}` or `{"F": 70.7}`. */
const Temperature = Schema.Union([Celsius, Fahrenheit]).annotate({
  description: DOCS ? "Degrees Celsius `{\"C\": 21.5}` or Fahrenheit `{\"F\": 70.7}`; compared in Celsius." : "",
  ...explainedBy(explainKeyed(
    temperatureExample,
    (unit) => (unit === "C" ? Celsius : unit === "F" ? Fahrenheit : undefined),
    (unit) => `unknown temperature unit ${JSON.stringify(unit)} (expected "C" or "F")`
  ))
})

const { cases } = Value

/** A number as the model keeps it (see `plain0`), read from `wire`. */
const number = (wire: Wire<number>): WirePart<number, number> => ({ wire, read: plain0, write: identity })

const color = fieldsOf(cases.Color)

const ColorJson = wireRecord(cases.Color, {
  h: color.field("h", { wire: Finite, read: normalizeHue, write: identity }),
  s: color.field("s", number(UnitInterval)),
  v: color.field("v", number(UnitInterval))
}, {
  constants: { _tag: "Color" },
  annotations: { expected: "a color", description: DOCS ? "Hue in degrees (taken mod 360), saturation and value in [0, 1]." : "" }
})

const binary = fieldsOf(cases.Binary)

const BinaryJson = wireRecord(cases.Binary, {
  data: binary.field("data", Schema.Array(Byte).annotate({ expected: "an array of bytes", description: DOCS ? "The bytes." : "" })),
  mimetype: binary.field("mimetype", Schema.String)
}, { constants: { _tag: "Binary" }, annotations: { expected: "binary data" } })

const extBool = fieldsOf(cases.ExtBool)

const ExtBoolJson = wireRecord(cases.ExtBool, {
  value: extBool.field("value", Schema.Boolean),
  vendor: extBool.field("vendor", Schema.String),
  adapter: extBool.field("adapter", Schema.String),
  kind: extBool.field("kind", Schema.String)
}, { constants: { _tag: "ExtBool" }, annotations: { expected: "an extension value" } })

const extNumeric = fieldsOf(cases.ExtNumeric)

const ExtNumericJson = wireRecord(cases.ExtNumeric, {
  value: extNumeric.field("value", number(Finite)),
  vendor: extNumeric.field("vendor", Schema.String),
  adapter: extNumeric.field("adapter", Schema.String),
  kind: extNumeric.field("kind", Schema.String)
}, { constants: { _tag: "ExtNumeric" }, annotations: { expected: "an extension value" } })

/** The form of each value type (docs/reference.md §2), and how it maps onto the domain's Value. */
const forms = {
  Unit: keyedForm(
    "Unit",
    plain(Schema.Unknown.annotate({ description: DOCS ? "Written as null; any payload is read, and ignored (FoxBox clients send \"\")." : "" })),
    () => ({ _tag: "Unit" }) as const,
    () => null
  ),
  OnOff: keyedForm("OnOff", plain(twoStates(["On", "Off"])), (state) => ({ _tag: "OnOff", state }) as const, (v) => v.state),
  OpenClosed: keyedForm("OpenClosed", plain(twoStates(["Open", "Closed"])), (state) => ({ _tag: "OpenClosed", state }) as const, (v) => v.state),
  DoorLocked: keyedForm("DoorLocked", plain(twoStates(["Locked", "Unlocked"])), (state) => ({ _tag: "DoorLocked", state }) as const, (v) => v.state),
  Duration: keyedForm(
    "Duration",
    plain(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0, { message: "must not be negative" })).annotate({
      expected: "a number of seconds",
      description: DOCS ? "Seconds, with millisecond precision (finer is rounded)." : ""
    })),
    (seconds) => ({ _tag: "Duration", seconds: plain0(roundToMilliseconds(seconds)) }) as const,
    (v) => v.seconds
  ),
  TimeStamp: keyedForm("TimeStamp", TimestampJson, (epochMillis) => ({ _tag: "TimeStamp", epochMillis }) as const, (v) => v.epochMillis),
  Temperature: keyedForm(
    "Temperature",
    plain(Temperature),
    (t) => "C" in t
      ? { _tag: "Temperature", unit: "C", degrees: plain0(t.C) } as const
      : { _tag: "Temperature", unit: "F", degrees: plain0(t.F) } as const,
    (v) => (v.unit === "C" ? { C: v.degrees } : { F: v.degrees })
  ),
  Color: keyedForm("Color", ColorJson, identity, identity),
  String: keyedForm("String", plain(Schema.String), (value) => ({ _tag: "String", value }) as const, (v) => v.value),
  Json: keyedForm("Json", plain(JsonPayload), (value) => ({ _tag: "Json", value }) as const, (v) => v.value),
  Binary: keyedForm("Binary", BinaryJson, identity, identity),
  ExtBool: keyedForm("ExtBool", ExtBoolJson, identity, identity),
  ExtNumeric: keyedForm("ExtNumeric", ExtNumericJson, identity, identity)
}

const valueExample = `a value such as {"OnOff": "On"}`

const value = keyedUnion<Value>(forms, valueExample, (type) => `unknown value type ${JSON.stringify(type)} (known: ${knownTypes})`)

/** A value as the gateway writes it: `{"<type>": payload}`, Unit as `{"Unit": null}`, timestamps in UTC. */
export const ValueJson = wireShape(annotated(value, {
  identifier: "Value",
  description: DOCS ? "A value: an object with exactly one key naming its type, the same in both vocabularies." : "",
  expected: valueExample
}), Value)

const ValueInputWire = Schema.Union([ValueJson.wire, Schema.Null]).annotate({
  identifier: "ValueInput",
  description: DOCS ? "A value in a request body: a Value, or null for `{\"Unit\": null}`." : "",
  ...explainedBy(() => ValueJson.wire)
})

/** A value as a client may send it: a Value, or a bare `null` for Unit (FoxBox clients write it so). */
export const ValueInputJson = wireShape({
  wire: ValueInputWire,
  read: (json): Value => (json === null ? { _tag: "Unit" } : ValueJson.read(json)),
  write: ValueJson.write,
  surely: (json): json is typeof ValueInputWire.Type => isSimpleValueInput(json)
}, Value)

/** A value, or `null` for none (yet): how results and a home file's initial values write "no value". */
export const ValueOrNullJson = wireShape({
  // `null` is read as "no value" here (the null form comes first), not as FoxBox's Unit.
  wire: Schema.Union([Schema.Null, ValueJson.wire]).annotate(explainedBy(() => ValueJson.wire)),
  read: (json) => (json === null ? Option.none() : Option.some(ValueJson.read(json))),
  write: (value: Option.Option<Value>) => (Option.isNone(value) ? null : ValueJson.write(value.value))
}, Schema.Option(Value))

/**
 * Reads a value. `path` is where it sits in the body, for messages such as
 * `body[0].value: unknown value type "Foo"` or `body.value.Color.s: must be between 0 and 1`.
 */
