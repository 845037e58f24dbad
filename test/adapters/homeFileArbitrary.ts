import * as fc from "fast-check"

/**
 * Home files generated near the contract's edges (HomeFile.ts's `HomeFileJson`): each field right, or of a
 * wrong type, or out of bounds; unknown fields; odd values and kinds. As objects, not yet written as text.
 */

/** A field's right values mostly, and sometimes anything at all: the checks are met and missed. */
const mostly = <A>(right: fc.Arbitrary<A>): fc.Arbitrary<unknown> => fc.oneof({ weight: 60, arbitrary: right }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) })

const id = fc.oneof(
  { weight: 80, arbitrary: fc.constantFrom("a@sim", "b@sim", "service:x@sim", "getter:é@sim") },
  fc.constantFrom("", "bad\u0007id", "x".repeat(256), "x".repeat(257), "🙂".repeat(200), "🙂".repeat(257)),
  fc.string()
)
const tags = fc.array(fc.oneof({ weight: 20, arbitrary: fc.constantFrom("kitchen", "hall", "night light") }, id), { maxLength: 3 })
const kind = fc.oneof(
  { weight: 40, arbitrary: fc.constantFrom("OnOff", "OpenClosed", "ActualTemperature", "Ready", "LightColor", "TemperatureSetter") },
  fc.constantFrom("Toaster", "onoff", { OnOff: [] }, { vendor: "v", adapter: "a", kind: "k", type: "Numeric" }),
  fc.constantFrom({ vendor: "v", adapter: "a", kind: "k", type: "Nope" }, { vendor: "v", adapter: "a", kind: "k", type: "OnOff", more: 1 })
)
const value = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom({ OnOff: "On" }, { OnOff: "Off" }, { OpenClosed: "Closed" }, { Temperature: { C: 20 } }, { Unit: null }, null) },
  fc.constantFrom(
    { Color: { h: 40, s: 0.35, v: 0.8 } },
    { Color: { h: 40, s: 2, v: 0.8 } },
    { Temperature: { K: 3 } },
    { OnOff: "On", OpenClosed: "Open" },
    { TimeStamp: "2026-01-01T00:00:00Z" },
    { TimeStamp: "yesterday" },
    { Duration: -1 },
    { Json: { a: [1, { b: null }] } },
    { Binary: { data: [1, 256], mimetype: "x" } },
    { Unit: "" },
    "On",
    {}
  ),
  fc.jsonValue({ maxDepth: 3 })
)
const number = fc.oneof(fc.constantFrom(0, 1, 0.5, -1, 5, 1e9), fc.double({ noNaN: true, noDefaultInfinity: true }))

/** Mostly `null`, sometimes one of `arbitrary`'s. */
const rarely = <A>(arbitrary: fc.Arbitrary<A>): fc.Arbitrary<A | null> => fc.oneof({ weight: 40, arbitrary: fc.constant(null) }, arbitrary)

/** An object of some of `fields` (`required` mostly there), sometimes with a field no shape takes. */
const someOf = (fields: Record<string, fc.Arbitrary<unknown>>, required: ReadonlyArray<string>) =>
  fc.tuple(
    fc.record(fields, { requiredKeys: [...required] }),
    rarely(fc.constantFrom(...required)),
    rarely(fc.tuple(fc.constantFrom("latency", "Id", "extra", "__proto__"), fc.jsonValue({ maxDepth: 1 })))
  ).map(([object, missing, extra]) => {
    const out: Record<string, unknown> = { ...object }
    if (missing !== null) delete out[missing]
    if (extra !== null) out[extra[0]] = extra[1]
    return out
  })

const cycle = mostly(someOf({ every_ms: mostly(number), values: mostly(fc.array(value, { maxLength: 3 })) }, ["every_ms", "values"]))
const getter = mostly(someOf(
  { id: mostly(id), kind: mostly(kind), tags: mostly(tags), value: mostly(value), cycle, watch: mostly(fc.constantFrom("thresholds-only", "always")) },
  ["id", "kind"]
))
const setter = mostly(someOf({ id: mostly(id), kind: mostly(kind), tags: mostly(tags), drives: mostly(id) }, ["id", "kind"]))
const service = mostly(someOf(
  {
    id: mostly(id),
    tags: mostly(tags),
    properties: mostly(fc.dictionary(fc.string(), fc.oneof({ weight: 60, arbitrary: fc.string() }, fc.jsonValue({ maxDepth: 1 })), { maxKeys: 3 })),
    latency_ms: mostly(number),
    fail: mostly(fc.constantFrom("error", "timeout", "crash")),
    getters: mostly(fc.array(getter, { maxLength: 3 })),
    setters: mostly(fc.array(setter, { maxLength: 3 }))
  },
  ["id"]
))
export const homeFile = mostly(someOf({ adapter: mostly(id), services: mostly(fc.array(service, { maxLength: 3 })) }, ["services"]))
