import { describe, expect, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { defaultSimulatorAdapter, HomeFileJson } from "../../src/adapters/simulator/HomeFile.ts"
import { readHomeJson } from "../../src/adapters/simulator/HomeFileRead.ts"
import { AdapterId } from "../../src/domain/index.ts"
import { parseOptions } from "../../src/vocabulary/common/WireIssue.ts"
import { homeFile } from "./homeFileArbitrary.ts"

/**
 * The plain reading of a home file accepts exactly what the contract's schema, `HomeFileJson`, accepts:
 * on home files generated near the contract's edges (each field right, or of a wrong type, or out of
 * bounds; unknown fields; odd values and kinds), the two agree on every file, and what is read keeps
 * the file's ids and order.
 */

const schemaAccepts = (json: unknown): boolean => Result.isSuccess(Schema.decodeUnknownResult(HomeFileJson, parseOptions)(json))

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
