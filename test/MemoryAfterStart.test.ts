import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { getHeapSpaceStatistics } from "node:v8"
import { settleMemory } from "../src/MemoryAfterStart.ts"

const MiB = 1024 * 1024

/** What V8 holds for its young generation now. */
const youngGeneration = (): number => getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0

describe("settleMemory", () => {
  it("shrinks the young generation that allocating what lives on grew, and leaves no gc function in the global scope", () => {
    // What a start does: much allocated, most of it kept, so V8 grows its young generation.
    const kept: Array<{ readonly i: number }> = []
    for (let i = 0; i < 300_000; i++) kept.push({ i })
    expect(youngGeneration()).toBeGreaterThan(8 * MiB)
    Effect.runSync(settleMemory)
    expect(youngGeneration()).toBeLessThanOrEqual(2 * MiB)
    expect(kept.length).toBe(300_000)
    expect("gc" in globalThis).toBe(false)
  })
})
