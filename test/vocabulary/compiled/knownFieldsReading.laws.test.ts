import * as fc from "fast-check"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { law } from "../../laws/law.ts"
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

const sameAsStrict = (name: BodyName, body: unknown): boolean => {
  const json = JSON.parse(JSON.stringify(body))
  const strict = bodyReaders[name].readStrictly(json)
  expect(oneLine(bodyReaders[name].read(json))).toBe(oneLine(strict))
  return Result.isSuccess(strict)
}

/** A route's body reader, by name, and a body drawn for it. */
const bodiesOf = (draw: (name: BodyName) => fc.Arbitrary<unknown>) =>
  fc.constantFrom(...(Object.keys(bodyReaders) as Array<BodyName>)).chain((name) => draw(name).map((body) => ({ name, body })))

// Laws (docs/laws.md): npm test runs the first half of their runs, npm run laws all of them.
law("known fields: a good body is taken as one without an unknown field, and read as the strict schema reads it", {
  of: "good bodies the strict schema reads",
  floor: 0.9
}, 1_200, (note) =>
  fc.property(bodiesOf((name) => goodBodies[name]), ({ name, body }) => {
    expect(bodyReaders[name].knownFieldsOnly(JSON.parse(JSON.stringify(body)))).toBe(true)
    note(sameAsStrict(name, body))
  }))

law("known fields: a body with one defect is read as the strict schema reads it: the same model, or the same message", {
  of: "bodies with a defect the strict schema refuses",
  floor: 0.4
}, 6_000, (note) =>
  fc.property(bodiesOf((name) => brokenBodies(goodBodies[name])), ({ name, body }) => {
    note(!sameAsStrict(name, body))
  }))

describe("a body read with its unknown fields ignored when it has none", () => {
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
