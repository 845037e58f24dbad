import { describe, expect, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { defaultSimulatorAdapter, HomeFileJson } from "../../src/adapters/simulator/HomeFile.ts"
import { readHomeJson } from "../../src/adapters/simulator/HomeFileRead.ts"
import { AdapterId } from "../../src/domain/index.ts"
import { parseOptions } from "../../src/vocabulary/common/WireIssue.ts"

/**
 * The plain reading of a home file accepts exactly what the contract's schema, `HomeFileJson`, accepts:
 * on home files generated near the contract's edges (each field right, or of a wrong type, or out of
 * bounds; unknown fields; odd values and kinds), the two agree on every file, and what is read keeps
 * the file's ids and order.
 */

const schemaAccepts = (json: unknown): boolean => Result.isSuccess(Schema.decodeUnknownResult(HomeFileJson, parseOptions)(json))

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
const homeFile = mostly(someOf({ adapter: mostly(id), services: mostly(fc.array(service, { maxLength: 3 })) }, ["services"]))

/** As JSON.parse gives it: the reading is of parsed files (an own `__proto__` key included). */
const asParsed = (json: unknown): unknown => JSON.parse(JSON.stringify(json))

/** A home file the reading accepted, with the fields whose reading the property compares. */
interface AcceptedFile {
  readonly adapter?: string
  readonly services: ReadonlyArray<{ id: string; latency_ms?: number; getters?: ReadonlyArray<{ id: string }>; setters?: ReadonlyArray<{ id: string }> }>
}

/**
 * Each generated file goes to every check (generating one cost more than checking it): the two verdicts
 * agree, an accepted file is read in its order with defaults filled in, and both verdicts are met often
 * enough (more than one in twenty of each) to hold the reading to the schema on each side.
 */
describe("home file reading", () => {
  it("accepts exactly the home files the schema accepts, keeps an accepted file's services and channels in its order with defaults filled in, and meets both verdicts often enough", () => {
    let accepted = 0
    let runs = 0
    fc.assert(
      fc.property(homeFile.map(asParsed), (json) => {
        runs++
        const home = readHomeJson(json, AdapterId.make(defaultSimulatorAdapter))
        const verdict = schemaAccepts(json)
        expect(home !== undefined).toBe(verdict)
        if (!verdict) return
        accepted++
        const file = json as AcceptedFile
        expect(home?.adapter).toBe(file.adapter ?? defaultSimulatorAdapter)
        expect(home?.services.map((s) => [s.id, s.latency_ms, s.getters.map((g) => g.id), s.setters.map((c) => c.id)])).toEqual(
          file.services.map((s) => [s.id, s.latency_ms ?? 0, (s.getters ?? []).map((g) => g.id), (s.setters ?? []).map((c) => c.id)])
        )
      }),
      { numRuns: 3_000 }
    )
    expect(accepted).toBeGreaterThan(runs / 20)
    expect(runs - accepted).toBeGreaterThan(runs / 20)
  })
})
