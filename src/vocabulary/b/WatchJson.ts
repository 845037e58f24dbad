import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { ValueFilter, WatchRegistration } from "../../domain/Watch.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { RangeJson } from "../common/RangeJson.ts"
import { decodeWith, encodeWith } from "../common/WireIssue.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import { expressibleAsGetterSelector, GetterSelectorsJson } from "./SelectorJson.ts"

/**
 * The watch frame of vocabulary B (wire.md §7): `[{"select": GetterSelector(s), "range": R}]`, a single
 * object accepted in place of the array. R is a Range, `"Never"`, or absent/`null` for Always (`"Always"`
 * is read too). B always announces topology: every target has `topology` true.
 */
const transform = SchemaTransformation.transform

const ValueFilterJson = Schema.Union([Schema.Null, Schema.Literals(["Always", "Never"]), RangeJson]).annotate(explainedBy((input) =>
  isJsonObject(input) ? RangeJson : expectedGot(`a range such as {"Geq": V}, "Never", or null (always)`, input)
)).pipe(Schema.decodeTo(
  Schema.toType(ValueFilter),
  transform({
    decode: (json): ValueFilter =>
      json === null || json === "Always" ? { _tag: "Always" } : json === "Never" ? { _tag: "Never" } : { _tag: "InRange", range: json },
    encode: (filter) => (filter._tag === "Always" ? null : filter._tag === "Never" ? "Never" as const : filter.range)
  })
))

/** One entry of the frame: one canonical target per selector, all with the entry's range. */
const Entry = Schema.Struct({
  select: GetterSelectorsJson,
  range: Schema.optionalKey(ValueFilterJson)
}).annotate({
  expected: `a watch target {"select", "range"}`,
  identifier: "BWatchTarget",
  description: "Watch the getters `select` matches (a live set), with their values filtered by `range`: " +
    "those in the range, none (`\"Never\"`), or all (absent or null)."
}).pipe(Schema.decodeTo(
  Schema.toType(WatchRegistration),
  transform({
    decode: (entry): WatchRegistration => {
      const values: ValueFilter = entry.range ?? { _tag: "Always" }
      return entry.select.map((selector) => ({ selector, values, topology: true }))
    },
    // Written one entry per target; Always by leaving `range` out.
    encode: (targets) => {
      const values = targets[0]?.values ?? { _tag: "Always" }
      return { select: targets.map((t) => t.selector), ...(values._tag === "Always" ? {} : { range: values }) }
    }
  })
))

const Entries = Schema.Array(Entry).pipe(Schema.decodeTo(
  Schema.toType(WatchRegistration),
  transform({ decode: (entries): WatchRegistration => entries.flat(), encode: (targets) => targets.map((t) => [t]) })
))

/**
 * Written as one entry per target. Refused when a target does not watch topology (B always does); a
 * target whose selector matches nothing (a Conflict, or setters only) watches nothing and is left out.
 */
export const WatchFrameJson = Schema.Union([Entries, Entry]).annotate({
  identifier: "BWatchFrame",
  description: "A registration of the watch socket in vocabulary B: its targets, united. Each frame replaces the previous one."
}).annotate(explainedBy((input) =>
  Array.isArray(input) ? Entries : isJsonObject(input) ? Entry : expectedGot(`[{"select": …, "range": …}] or one such object`, input)
)).pipe(Schema.decode(SchemaTransformation.transformEffect({
  decode: (registration) => Effect.succeed(registration),
  encode: (registration) =>
    registration.some((target) => !target.topology)
      ? Effect.fail(new SchemaIssue.InvalidValue({ message: "vocabulary B always watches topology: it cannot switch it off" }, registration))
      : Effect.succeed(registration.filter((target) => expressibleAsGetterSelector(target.selector)))
})))

export const decodeWatchFrame = decodeWith(WatchFrameJson)
export const encodeWatchFrame = encodeWith(WatchFrameJson)
