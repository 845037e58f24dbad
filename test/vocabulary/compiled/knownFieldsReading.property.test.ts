import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { brokenBodies, goodBodies } from "./bodyArbitraries.ts"
import { type BodyName, bodyReaders, oneLine } from "./bodyReaders.ts"

/**
 * The gateway reads a body without an unknown field with unknown fields ignored (the cheaper reading,
 * src/vocabulary/common/KnownFields.ts), and any other with them refused. Whichever it takes, it must
 * accept exactly what the strict schema accepts, read it as the same model, and refuse the rest with
 * the same words: for good bodies, and bodies with one defect anywhere (a field added or removed, a part
 * replaced by other JSON: a union's members included). The compiled reading is held to the interpreter
 * by compiledDecoding.laws.test.ts.
 */

const sameAsStrict = (name: BodyName) => (body: unknown) => {
  const json = JSON.parse(JSON.stringify(body))
  expect(oneLine(bodyReaders[name].read(json))).toBe(oneLine(bodyReaders[name].readStrictly(json)))
}

describe("a body read with its unknown fields ignored when it has none", () => {
  for (const name of Object.keys(bodyReaders) as Array<BodyName>) {
    it(`takes a good ${name} body as one without an unknown field, and reads it as the strict schema does`, () => {
      fc.assert(
        fc.property(goodBodies[name], (body) => {
          expect(bodyReaders[name].knownFieldsOnly(JSON.parse(JSON.stringify(body)))).toBe(true)
          sameAsStrict(name)(body)
        }),
        { numRuns: 200 }
      )
    })

    it(`reads a ${name} body with one defect as the strict schema does: the same model, or the same message`, () => {
      fc.assert(fc.property(brokenBodies(goodBodies[name]), sameAsStrict(name)), { numRuns: 1_000 })
    })
  }

  it("refuses a field unknown to a value's form, even where another form declares it", () => {
    const body = { select: { id: "setter:x" }, value: { OnOff: "On", Unit: null } }
    expect(bodyReaders["B send_values"].knownFieldsOnly(body)).toBe(false)
    expect(bodyReaders["B send_values"].read(body)).toMatchObject({ _tag: "Failure", failure: { reason: expect.stringContaining("2 keys") } })
  })

  it("refuses an unknown field of a selector inside a list with the strict schema's words", () => {
    const body = [{ id: { Exactly: "getter:x" } }, { id: { Exactly: "getter:y" }, colour: "red" }]
    expect(bodyReaders["A get_channel_value"].knownFieldsOnly(body)).toBe(false)
    expect(oneLine(bodyReaders["A get_channel_value"].read(body))).toBe(oneLine(bodyReaders["A get_channel_value"].readStrictly(body)))
    expect(bodyReaders["A get_channel_value"].read(body)).toMatchObject({ _tag: "Failure", failure: { path: [1], reason: expect.stringContaining(`unknown field "colour"`) } })
  })
})
