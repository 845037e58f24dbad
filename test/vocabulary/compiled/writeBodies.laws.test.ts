import * as fc from "fast-check"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import * as A from "../../../src/vocabulary/a/index.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import { ValueInputJson } from "../../../src/vocabulary/common/ValueJson.ts"
import { idText } from "../../arbitraries/idText.ts"
import { law } from "../../laws/law.ts"
import { type BodyName, bodyReaders, oneLine } from "./bodyReaders.ts"

/**
 * A write's body of selectors by id and a simple value is told without the schema (`surely`,
 * src/vocabulary/common/SimpleValueJson.ts and SelectorsById.ts) and read as it is. That check may only say
 * yes to a body the strict schema accepts, which must then read as the same model; and it must say yes to
 * every such body of the target form whose ids are at most 256 UTF-16 units and whose value is of a simple
 * type (a state, a string, a number, null), or it saves nothing. Values are drawn near the edges of those
 * types (other states, negative and huge numbers, a second key) and of other types; targets beside the form.
 */

/** A value drawn for a body, and whether it is of a type the check tells (whatever its payload). */
interface DrawnValue {
  readonly simple: boolean
  readonly json: unknown
}

const number = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constantFrom(0, -0, -1, 1e308, 5e-324))
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("On", "Off", "Open", "Closed", "Locked", "Unlocked", "on", ""))
const primitive = fc.oneof(text, number, fc.boolean(), fc.constant(null))

const simpleValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant({ Unit: null }),
  fc.tuple(fc.constantFrom("OnOff", "OpenClosed", "DoorLocked", "String"), text).map(([type, state]) => ({ [type]: state })),
  number.map((seconds) => ({ Duration: seconds })),
  fc.tuple(fc.constantFrom("C", "F"), number).map(([unit, degrees]) => ({ Temperature: { [unit]: degrees } })),
  primitive.map((json) => ({ Json: json }))
)

const otherValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    { Unit: "" },
    { Unit: { a: 1 } },
    { OnOff: "On", String: "x" },
    { Temperature: { C: 1, F: 2 } },
    { Temperature: { K: 1 } },
    { TimeStamp: "2026-11-29T07:00:00Z" },
    { TimeStamp: "yesterday" },
    { Color: { h: 10, s: 0.5, v: 0.5 } },
    { Binary: { data: [1, 2], mimetype: "a/b" } },
    { Json: [1, { a: null }] },
    { Json: {} },
    {},
    []
  ),
  primitive.map((json) => ({ OnOff: json })),
  fc.jsonValue({ maxDepth: 2 })
)

const drawnValue: fc.Arbitrary<DrawnValue> = fc.oneof(
  { weight: 4, arbitrary: simpleValue.map((json) => ({ simple: true, json })) },
  { weight: 1, arbitrary: otherValue.map((json) => ({ simple: false, json })) }
)

/** Selectors drawn for a target, and whether they are all by an id at most 256 units long. */
interface DrawnSelectors {
  readonly shortById: boolean
  readonly json: unknown
}

const selector = (byId: (id: unknown) => unknown): fc.Arbitrary<DrawnSelectors> =>
  fc.oneof(
    { weight: 5, arbitrary: idText.map((id) => ({ shortById: typeof id === "string" && id.length <= 256, json: byId(id) })) },
    { weight: 1, arbitrary: idText.map((id) => ({ shortById: false, json: { ...Object(byId(id)), tags: [] } })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((json) => ({ shortById: false, json })) }
  )

const selectorList = (byId: (id: unknown) => unknown): fc.Arbitrary<DrawnSelectors> =>
  fc.array(selector(byId), { maxLength: 3 }).map((all) => ({ shortById: all.every((s) => s.shortById), json: all.map((s) => s.json) }))

/** A body drawn for a route, and whether it is of the form told (a target of short ids and a simple value). */
interface DrawnBody {
  readonly told: boolean
  readonly json: unknown
}

const target = (key: string, selectors: fc.Arbitrary<DrawnSelectors>): fc.Arbitrary<DrawnBody> =>
  fc.tuple(selectors, drawnValue).map(([select, value]) => ({
    told: select.shortById && value.simple,
    json: { [key]: select.json, value: value.json }
  }))

const beside = (key: string, selectors: fc.Arbitrary<DrawnSelectors>): fc.Arbitrary<DrawnBody> =>
  fc.tuple(selectors, drawnValue, fc.constantFrom("extra", "missing", "pair")).map(([select, value, how]) => ({
    told: false,
    json: how === "extra"
      ? { [key]: select.json, value: value.json, tags: [] }
      : how === "missing"
      ? { [key]: select.json }
      : [select.json, value.json]
  }))

const bSelectors = fc.oneof(selector((id) => ({ id })), selectorList((id) => ({ id })))
const bTarget = target("select", bSelectors)

const bBody: fc.Arbitrary<DrawnBody> = fc.oneof(
  { weight: 3, arbitrary: bTarget },
  {
    weight: 2,
    arbitrary: fc.array(fc.oneof({ weight: 4, arbitrary: bTarget }, { weight: 1, arbitrary: beside("select", bSelectors) }), { maxLength: 3 })
      .map((all) => ({ told: all.length > 0 && all.every((t) => t.told), json: all.map((t) => t.json) }))
  },
  { weight: 1, arbitrary: beside("select", bSelectors) }
)

const aSelectors = selectorList((id) => ({ id: { Exactly: id } }))

const aBody: fc.Arbitrary<DrawnBody> = fc.oneof(
  { weight: 4, arbitrary: target("set", aSelectors) },
  { weight: 1, arbitrary: beside("set", aSelectors) }
)

const writes: ReadonlyArray<{ readonly name: BodyName; readonly surely: (json: unknown) => boolean; readonly body: fc.Arbitrary<DrawnBody> }> = [
  { name: "B send_values", surely: (json) => B.SendBodyJson.surely?.(json) === true, body: bBody },
  { name: "A put_channel_value", surely: (json) => A.PutValueBodyJson.surely?.(json) === true, body: aBody }
]

const bodies = fc.constantFrom(...writes).chain((write) =>
  write.body.map(({ told, json }) => ({ name: write.name, surely: write.surely, shouldTell: told, body: JSON.parse(JSON.stringify(json)) as unknown }))
)

law("write bodies: a body told without the schema is one the strict schema accepts, read as the same model", {
  of: "bodies told without the schema",
  floor: 0.2
}, 3_000, (note) =>
  fc.property(bodies, ({ name, surely, shouldTell, body }) => {
    const strict = bodyReaders[name].readStrictly(body)
    const told = surely(body)
    if (told) expect(Result.isSuccess(strict)).toBe(true)
    if (Result.isSuccess(strict) && shouldTell) expect(told).toBe(true)
    expect(oneLine(bodyReaders[name].read(body))).toBe(oneLine(strict))
    note(told)
  }))

describe("a write's body of selectors by id and a simple value", () => {
  it("is told without the schema in both vocabularies", () => {
    expect(B.SendBodyJson.surely?.({ select: { id: "setter:lamp@home" }, value: { OnOff: "On" } })).toBe(true)
    expect(B.SendBodyJson.surely?.([{ value: null, select: [{ id: "setter:lamp@home" }] }])).toBe(true)
    expect(A.PutValueBodyJson.surely?.({ set: [{ id: { Exactly: "setter:lamp@home" } }], value: { Duration: 1.5 } })).toBe(true)
  })

  it("leaves other values to the schema, and its words", () => {
    expect(ValueInputJson.surely?.({ TimeStamp: "2026-11-29T07:00:00Z" })).toBe(false)
    expect(B.SendBodyJson.surely?.({ select: { id: "setter:lamp@home" }, value: { OnOff: "on" } })).toBe(false)
    expect(bodyReaders["B send_values"].read({ select: { id: "setter:lamp@home" }, value: { Duration: -1 } })).toMatchObject({
      _tag: "Failure",
      failure: { reason: expect.stringContaining("must not be negative") }
    })
  })
})
