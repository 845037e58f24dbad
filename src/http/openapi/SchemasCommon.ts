import { CONTROL_CHARACTERS, MAX_IDENTIFIER_LENGTH } from "../../domain/Identifier.ts"
import { builtinKindNames, builtinKindTypes } from "../../domain/Kind.ts"
import { type ValueType, valueTypes } from "../../domain/ValueType.ts"
import {
  arrayOf,
  closedObject,
  type Components,
  type JsonSchema,
  nullable,
  nullSchema,
  oneOf,
  pair,
  ref,
  singleKey
} from "./JsonSchema.ts"
import { MAX_JSON_DEPTH } from "../../vocabulary/common/ValueJson.ts"
import { maxPasswordLength } from "../../auth/Password.ts"
import { minPasswordLength } from "../../auth/UserInput.ts"

/**
 * The components both vocabularies share (wire.md §1–3, §6): identifiers, tags, timestamps, values,
 * kinds' common parts, ranges, the tag count and the error body. Names without an `A`/`B` prefix.
 */

/** The identifier and tag rule of §1. Lengths are in code points, as JSON Schema's `maxLength` counts them. */
const boundedText = (description: string): JsonSchema => ({
  description: `${description} Non-empty, at most ${MAX_IDENTIFIER_LENGTH} characters (Unicode code points), no control characters.`,
  type: "string",
  minLength: 1,
  maxLength: MAX_IDENTIFIER_LENGTH,
  pattern: `^[^${CONTROL_CHARACTERS}]*$`
})

const text: JsonSchema = { type: "string" }
const number: JsonSchema = { type: "number" }
const unitInterval: JsonSchema = { type: "number", minimum: 0, maximum: 1 }
const vendorFields = { vendor: text, adapter: text, kind: text }

/** Each value type's payload (§2); the record's type makes the list exhaustive. */
const payloads: { readonly [T in ValueType]: JsonSchema } = {
  Unit: { description: "Written as null; any payload is read, and ignored (FoxBox clients send \"\")." },
  OnOff: { type: "string", enum: ["On", "Off"] },
  OpenClosed: { type: "string", enum: ["Open", "Closed"] },
  DoorLocked: { type: "string", enum: ["Locked", "Unlocked"] },
  Duration: { description: "Seconds, with millisecond precision (finer is rounded).", type: "number", minimum: 0 },
  TimeStamp: ref("Timestamp"),
  Temperature: {
    description: "Degrees Celsius `{\"C\": 21.5}` or Fahrenheit `{\"F\": 70.7}`; compared in Celsius.",
    type: "object",
    properties: { C: number, F: number },
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1
  },
  Color: closedObject(
    { h: number, s: unitInterval, v: unitInterval },
    ["h", "s", "v"],
    "Hue in degrees (taken mod 360), saturation and value in [0, 1]."
  ),
  String: text,
  Json: { description: `Any JSON, nested at most ${MAX_JSON_DEPTH} levels deep.` },
  Binary: closedObject(
    { data: arrayOf({ type: "integer", minimum: 0, maximum: 255 }, "The bytes."), mimetype: text },
    ["data", "mimetype"]
  ),
  ExtBool: closedObject({ value: { type: "boolean" }, ...vendorFields }, ["value", "vendor", "adapter", "kind"]),
  ExtNumeric: closedObject({ value: number, ...vendorFields }, ["value", "vendor", "adapter", "kind"])
}

const kindTable = builtinKindNames.map((name) => `${name}: ${builtinKindTypes[name]}`).join(", ")

const rangeBounds = pair(ref("ValueInput"), ref("ValueInput"), "[low, high], both of one value type.")

export const commonSchemas: Components = {
  ServiceId: boundedText("A service id (vocabulary B), which is the node id of vocabulary A."),
  ChannelId: boundedText("A channel id: a getter or setter (B), an input or output (A). Unique in the gateway."),
  AdapterId: boundedText("An adapter id, `<name>@<domain>` for the built-in adapters."),
  Tag: boundedText("A tag a client puts on a service/node or a channel; persisted with the id."),
  Tags: arrayOf(
    ref("Tag"),
    "Tags. In a selector: the thing carries all of them. In a response: sorted, without duplicates."
  ),
  Timestamp: {
    description: "RFC 3339 date-time with an offset. Written in UTC with milliseconds and `+00:00`.",
    type: "string",
    format: "date-time",
    examples: ["2026-11-22T06:00:00.000+00:00"]
  },
  ValueTypeName: { description: "The name of a value type (§2).", type: "string", enum: valueTypes },
  KindName: {
    description: `A built-in channel kind and, after the colon, the value type it carries: ${kindTable}.`,
    type: "string",
    enum: builtinKindNames
  },
  ExtensionKind: closedObject(
    { ...vendorFields, type: ref("ValueTypeName", "The type of the channel's values.") },
    ["vendor", "adapter", "kind", "type"],
    "A kind defined by an adapter, with the value type it carries."
  ),
  Value: oneOf(
    valueTypes.map((type) => singleKey(type, payloads[type])),
    "A value: an object with exactly one key naming its type, the same in both vocabularies."
  ),
  ValueInput: oneOf(
    [ref("Value"), nullSchema("A bare null is read as `{\"Unit\": null}`, as FoxBox clients write it.")],
    "A value in a request body: a Value, or null for Unit."
  ),
  Range: oneOf(
    [
      singleKey("Eq", ref("ValueInput")),
      singleKey("Leq", ref("ValueInput")),
      singleKey("Geq", ref("ValueInput")),
      singleKey("BetweenEq", rangeBounds, "Between the bounds, inclusive."),
      singleKey("OutOfStrict", rangeBounds, "Outside the bounds, strictly.")
    ],
    "A range of values, for watching (§7, vocabulary B)."
  ),
  ChannelTagBody: {
    description: "A channel tag body of either vocabulary. The body tells which (an A selector wraps `id`, " +
      "`parent` and `kind` in `{\"Exactly\": …}`); a body that reads both ways means the same both ways.",
    anyOf: [ref("BChannelTagBody"), ref("AChannelTagBody")]
  },
  TagCount: {
    description: "How many distinct things matched any selector, whether their tags changed or not.",
    type: "integer",
    minimum: 0
  },
  ErrorMessage: {
    description: "Every error answer's body: a JSON string a person can read, naming where the problem is.",
    type: "string",
    examples: ["body[0].tags: expected an array of strings"]
  },
  WatchFrameError: singleKey(
    "Error",
    { type: "string" },
    "The answer to a malformed frame on the watch socket: a readable message. The previous registration stays."
  ),
  Health: oneOf(
    [
      closedObject({ status: { type: "string", const: "ok" } }, ["status"], "All is well: exactly this."),
      closedObject(
        {
          status: { type: "string", const: "degraded" },
          reason: text,
          home: nullable(text, "The home file; null for the built-in demo home."),
          last_reload_error: nullable(text, "Why the last change of the home file was refused."),
          adapters: { type: "array", items: text, description: "The adapters connected now." },
          version: text
        },
        ["status", "reason", "home", "last_reload_error", "adapters", "version"],
        "The process serves, but something needs the operator's attention (a home file change was refused)."
      )
    ],
    "The process is up (200 either way)."
  ),
  NewUser: closedObject(
    {
      username: { type: "string", pattern: "^[A-Za-z0-9._@-]{1,64}$" },
      email: { type: "string", maxLength: 254 },
      password: { type: "string", minLength: minPasswordLength, maxLength: maxPasswordLength }
    },
    ["username", "email", "password"],
    "The first user."
  ),
  SessionToken: closedObject(
    { session_token: { type: "string", pattern: "^gw_[A-Za-z0-9_-]{43}$" } },
    ["session_token"],
    "A session token: send it as `Authorization: Bearer <token>`."
  )
}
