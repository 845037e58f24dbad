import { Option, Result, type Schema } from "effect"
import type { Value } from "../../domain/Value.ts"
import { type ValueType, valueTypes } from "../../domain/ValueType.ts"
import type { InputPath } from "./InvalidInput.ts"
import {
  type Decoded,
  describeJson,
  invalid,
  isJsonObject,
  type JsonObject,
  readArrayOf,
  readBoolean,
  readFinite,
  readObjectWithKeys,
  readRequired,
  readSingleKey,
  readString,
  requiredField
} from "./JsonInput.ts"
import { decodeTimestamp, encodeTimestamp } from "./TimestampJson.ts"

/**
 * Values on the wire, the same in both vocabularies (wire.md §2): an object with exactly one key naming
 * the value's type, e.g. `{"OnOff": "On"}`.
 */
const knownTypes = valueTypes.join(", ")

export const isValueType = (name: string): name is ValueType => valueTypes.some((type) => type === name)

/** A value type's name, as in an Extension kind's `type` or a TypeError's `expected` and `got`. */
export const decodeValueType = (json: unknown, path: InputPath = []): Decoded<ValueType> => {
  if (typeof json !== "string") return invalid(path, `expected a value type name such as "OnOff", got ${describeJson(json)}`)
  return isValueType(json)
    ? Result.succeed(json)
    : invalid(path, `unknown value type ${JSON.stringify(json)} (known: ${knownTypes})`)
}

const readState = <const S extends string>(
  states: readonly [S, S],
  json: unknown,
  path: InputPath
): Decoded<S> => {
  const state = states.find((s) => s === json)
  return state !== undefined
    ? Result.succeed(state)
    : invalid(path, `expected "${states[0]}" or "${states[1]}", got ${describeJson(json)}`)
}

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

const readUnitInterval = (json: unknown, path: InputPath): Decoded<number> =>
  Result.flatMap(
    readFinite(json, path),
    (n) => n >= 0 && n <= 1 ? Result.succeed(n) : invalid(path, "must be between 0 and 1")
  )

/** The `vendor`, `adapter` and `kind` strings of an extension value (and of an extension kind). */
export const readVendorFields = (object: JsonObject, path: InputPath) =>
  Result.gen(function*() {
    const vendor = yield* readRequired(object, "vendor", path, readString)
    const adapter = yield* readRequired(object, "adapter", path, readString)
    const kind = yield* readRequired(object, "kind", path, readString)
    return { vendor, adapter, kind }
  })

const extensionKeys = ["value", "vendor", "adapter", "kind"]

const decodePayload = (type: ValueType, json: unknown, path: InputPath): Decoded<Value> => {
  switch (type) {
    case "Unit":
      // FoxBox clients write the empty payload several ways (`null`, `[]`, `""`…) and FoxBox ignored
      // it: whatever it holds, it means the one Unit value (wire.md §2).
      return Result.succeed({ _tag: "Unit" })
    case "OnOff":
      return Result.map(readState(["On", "Off"], json, path), (state) => ({ _tag: "OnOff", state }))
    case "OpenClosed":
      return Result.map(readState(["Open", "Closed"], json, path), (state) => ({ _tag: "OpenClosed", state }))
    case "DoorLocked":
      return Result.map(readState(["Locked", "Unlocked"], json, path), (state) => ({ _tag: "DoorLocked", state }))
    case "Duration":
      return Result.flatMap(readFinite(json, path, "a number of seconds"), (seconds) =>
        seconds >= 0
          ? Result.succeed({ _tag: "Duration", seconds: roundToMilliseconds(seconds) })
          : invalid(path, "must not be negative"))
    case "TimeStamp":
      return Result.map(decodeTimestamp(json, path), (epochMillis) => ({ _tag: "TimeStamp", epochMillis }))
    case "Temperature":
      return Result.gen(function*() {
        const [unit, degrees] = yield* readSingleKey(json, path, `a temperature such as {"C": 21.5} or {"F": 70.7}`)
        if (unit !== "C" && unit !== "F") {
          return yield* invalid(path, `unknown temperature unit ${JSON.stringify(unit)} (expected "C" or "F")`)
        }
        return { _tag: "Temperature", unit, degrees: yield* readFinite(degrees, [...path, unit]) } as const
      })
    case "Color":
      return Result.gen(function*() {
        const color = yield* readObjectWithKeys(json, path, "a color", ["h", "s", "v"])
        const h = yield* readFinite(yield* requiredField(color, "h", path), [...path, "h"])
        const s = yield* readUnitInterval(yield* requiredField(color, "s", path), [...path, "s"])
        const v = yield* readUnitInterval(yield* requiredField(color, "v", path), [...path, "v"])
        return { _tag: "Color", h: normalizeHue(h), s, v } as const
      })
    case "String":
      return Result.map(readString(json, path), (value) => ({ _tag: "String", value }))
    case "Json":
    {
      const problem = jsonProblem(json)
      // The walk has just checked every part of `json`: it is JSON.
      return problem === undefined ? Result.succeed({ _tag: "Json", value: json as Schema.Json }) : invalid(path, problem)
    }
    case "Binary":
      return Result.gen(function*() {
        const binary = yield* readObjectWithKeys(json, path, "binary data", ["data", "mimetype"])
        const data = yield* readArrayOf(
          yield* requiredField(binary, "data", path),
          [...path, "data"],
          "an array of bytes",
          readByte
        )
        const mimetype = yield* readString(yield* requiredField(binary, "mimetype", path), [...path, "mimetype"])
        return { _tag: "Binary", data, mimetype } as const
      })
    case "ExtBool":
      return Result.gen(function*() {
        const ext = yield* readObjectWithKeys(json, path, "an extension value", extensionKeys)
        const value = yield* readBoolean(yield* requiredField(ext, "value", path), [...path, "value"])
        return { _tag: "ExtBool", value, ...(yield* readVendorFields(ext, path)) } as const
      })
    case "ExtNumeric":
      return Result.gen(function*() {
        const ext = yield* readObjectWithKeys(json, path, "an extension value", extensionKeys)
        const value = yield* readFinite(yield* requiredField(ext, "value", path), [...path, "value"])
        return { _tag: "ExtNumeric", value, ...(yield* readVendorFields(ext, path)) } as const
      })
  }
}

const readByte = (json: unknown, path: InputPath): Decoded<number> =>
  typeof json === "number" && Number.isInteger(json) && json >= 0 && json <= 255
    ? Result.succeed(json + 0)
    : invalid(path, `expected a byte (an integer from 0 to 255), got ${describeJson(json)}`)

/**
 * Json payloads may nest at most this deep. `JSON.parse` reads any depth, but `JSON.stringify` and
 * every recursive walk overflow the call stack near a few thousand levels: such a value, once accepted,
 * could never be answered or watched.
 */
export const MAX_JSON_DEPTH = 256

/** Why `json` is not plain JSON of bounded depth, or `undefined`. Walked with an explicit stack. */
const jsonProblem = (json: unknown): string | undefined => {
  const pending: Array<readonly [unknown, number]> = [[json, 0]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next
    if (item === null || typeof item === "string" || typeof item === "boolean") continue
    if (typeof item === "number") {
      if (!Number.isFinite(item)) return "expected JSON, got a number that is not finite"
      continue
    }
    if (depth >= MAX_JSON_DEPTH) return `must not nest deeper than ${MAX_JSON_DEPTH} levels`
    if (Array.isArray(item)) {
      for (const element of item) pending.push([element, depth + 1])
    } else if (isJsonObject(item)) {
      for (const key of Object.keys(item)) pending.push([item[key], depth + 1])
    } else {
      return `expected JSON, got ${describeJson(item)}`
    }
  }
  return undefined
}

/**
 * Reads a value. `path` is where it sits in the body, for messages such as
 * `body[0].value: unknown value type "Foo"` or `body.value.Color.s: must be between 0 and 1`.
 */
export const decodeValue = (json: unknown, path: InputPath = []): Decoded<Value> => {
  // A bare `null` is FoxBox's Unit.
  if (json === null) return Result.succeed({ _tag: "Unit" })
  return Result.flatMap(
    readSingleKey(json, path, `a value such as {"OnOff": "On"}`),
    ([type, payload]) =>
      isValueType(type)
        ? decodePayload(type, payload, [...path, type])
        : invalid(path, `unknown value type ${JSON.stringify(type)} (known: ${knownTypes})`)
  )
}

const encodePayload = (value: Value): unknown => {
  switch (value._tag) {
    case "Unit":
      return null
    case "OnOff":
    case "OpenClosed":
    case "DoorLocked":
      return value.state
    case "Duration":
      return value.seconds
    case "TimeStamp":
      return encodeTimestamp(value.epochMillis)
    case "Temperature":
      return { [value.unit]: value.degrees }
    case "Color":
      return { h: value.h, s: value.s, v: value.v }
    case "String":
    case "Json":
      return value.value
    case "Binary":
      return { data: value.data, mimetype: value.mimetype }
    case "ExtBool":
    case "ExtNumeric":
      return { value: value.value, vendor: value.vendor, adapter: value.adapter, kind: value.kind }
  }
}

/** Writes a value in its one wire form (Unit as `{"Unit": null}`, timestamps in UTC). */
export const encodeValue = (value: Value): unknown => ({ [value._tag]: encodePayload(value) })

/** A value, or `null` for none (yet): how results and a home file's initial values write "no value". */
export const decodeValueOrNull = (json: unknown, path: InputPath = []): Decoded<Option.Option<Value>> =>
  json === null ? Result.succeed(Option.none()) : Result.map(decodeValue(json, path), Option.some)

export const encodeValueOrNull: (value: Option.Option<Value>) => unknown = Option.match({
  onNone: () => null,
  onSome: encodeValue
})
