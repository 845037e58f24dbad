import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type ValueFilter, WatchRegistration } from "../../domain/Watch.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { DOCS } from "../common/Docs.ts"
import { RangeJson } from "../common/RangeJson.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import { partialWireShape, type WirePart } from "../common/WireShape.ts"
import { expressibleAsGetterSelector, GetterSelectorsJson } from "./SelectorJson.ts"

/**
 * The watch frame of vocabulary B (docs/reference.md §7): `[{"select": GetterSelector(s), "range": R,
 * "initial_values": bool}]`, a single object accepted in place of the array. R is a Range, `"Never"`, or
 * absent/`null` for Always (`"Always"` is read too); `initial_values` (this gateway's extension) defaults to
 * false. B always announces topology: every target has `topology` true.
 */
const valueFilter: WirePart<ValueFilter, unknown> = {
  wire: Schema.Union([Schema.Null, Schema.Literals(["Always", "Never"]), RangeJson.wire]).annotate(explainedBy((input) =>
    isJsonObject(input) ? RangeJson.wire : expectedGot(`a range such as {"Geq": V}, "Never", or null (always)`, input)
  )),
  read: (json) =>
    json === null || json === "Always" ? { _tag: "Always" } : json === "Never" ? { _tag: "Never" } : { _tag: "InRange", range: RangeJson.read(json) },
  write: (filter) => (filter._tag === "Always" ? null : filter._tag === "Never" ? "Never" : RangeJson.write(filter.range))
}

/** One entry of the frame: one canonical target per selector, all with the entry's range. */
const entryWire = Schema.Struct({
  select: GetterSelectorsJson.wire,
  range: Schema.optionalKey(valueFilter.wire),
  initial_values: Schema.optionalKey(Schema.Boolean).annotateKey({
    description: DOCS ? "An extension of this gateway: also send each getter's current value (the last the gateway holds), if the " +
      "range lets it through, when this frame registers it and when it joins the set later, before its later values (default false)." : ""
  })
}).annotate({
  expected: `a watch target {"select", "range", "initial_values"}`,
  identifier: "BWatchTarget",
  description: DOCS ? "Watch the getters `select` matches (a live set), with their values filtered by `range`: " +
    "those in the range, none (`\"Never\"`), or all (absent or null); with `initial_values`, their current values too." : ""
})

type EntryWire = typeof entryWire.Type

const entry: WirePart<WatchRegistration, EntryWire> = {
  wire: entryWire,
  read: (json) => {
    const values: ValueFilter = json.range === undefined ? { _tag: "Always" } : valueFilter.read(json.range)
    const initialValues = json.initial_values === true
    return GetterSelectorsJson.read(json.select).map((selector) => ({ selector, values, topology: true, initialValues }))
  },
  // Written one entry per target; Always by leaving `range` out, and the extension only when asked.
  write: (targets: WatchRegistration) => {
    const values = targets[0]?.values ?? { _tag: "Always" }
    return {
      select: GetterSelectorsJson.write(targets.map((t) => t.selector)),
      ...(values._tag === "Always" ? {} : { range: valueFilter.write(values) }),
      ...(targets[0]?.initialValues === true ? { initial_values: true } : {})
    }
  }
}

const Entries = Schema.Array(entry.wire)

/**
 * Written as one entry per target. Refused when a target does not watch topology (B always does); a
 * target whose selector matches nothing (a Conflict, or setters only) watches nothing and is left out.
 */
export const WatchFrameJson = partialWireShape({
  wire: Schema.Union([Entries, entry.wire]).annotate({
    identifier: "BWatchFrame",
    description: DOCS ? "A registration of the watch socket in vocabulary B: its targets, united. Each frame replaces the previous one." : ""
  }).annotate(explainedBy((input) =>
    Array.isArray(input) ? Entries : isJsonObject(input) ? entry.wire : expectedGot(`[{"select": …, "range": …}] or one such object`, input)
  )),
  read: (json): WatchRegistration => (isEntries(json) ? json.flatMap(entry.read) : entry.read(json)),
  write: (registration: WatchRegistration) =>
    registration.some((target) => !target.topology)
      ? Result.fail("vocabulary B always watches topology: it cannot switch it off")
      : Result.succeed(registration.filter((target) => expressibleAsGetterSelector(target.selector)).map((target) => entry.write([target])))
}, WatchRegistration)

const isEntries = (json: EntryWire | ReadonlyArray<EntryWire>): json is ReadonlyArray<EntryWire> => Array.isArray(json)
