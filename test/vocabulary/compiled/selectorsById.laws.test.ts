import * as fc from "fast-check"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import * as A from "../../../src/vocabulary/a/index.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import { idText } from "../../arbitraries/idText.ts"
import { law } from "../../laws/law.ts"
import { type BodyName, bodyReaders, oneLine } from "./bodyReaders.ts"

/**
 * A read's body of selectors by id is told without the schema (`surely`, src/vocabulary/common/SelectorsById.ts)
 * and read as it is. That check may only say yes to a body the strict schema accepts, which must then read
 * as the same model; and it must say yes to every such body whose ids are at most 256 UTF-16 units long,
 * or it saves nothing. Ids are drawn near the rule's edges (empty, control characters, 256 and 257 units,
 * astral code points), and selectors beside the form (another field, another nesting, not an object).
 */

const reads: ReadonlyArray<{ readonly name: BodyName; readonly surely: (json: unknown) => boolean; readonly byId: (id: unknown) => unknown }> = [
  { name: "A get_channel_value", surely: (json) => A.GetSelectorsJson.surely?.(json) === true, byId: (id) => ({ id: { Exactly: id } }) },
  { name: "B fetch_values", surely: (json) => B.GetterSelectorsJson.surely?.(json) === true, byId: (id) => ({ id }) }
]

/** A selector drawn for a body: by id (with the id it names), or beside that form. */
type Drawn = { readonly byId: true; readonly id: unknown } | { readonly byId: false; readonly json: unknown }

const drawn = (byId: (id: unknown) => unknown): fc.Arbitrary<Drawn> =>
  fc.oneof(
    { weight: 4, arbitrary: idText.map((id): Drawn => ({ byId: true, id })) },
    {
      weight: 1,
      arbitrary: fc.tuple(idText, fc.constantFrom("tags", "kind", "Exactly", "service")).map(([id, key]): Drawn => ({
        byId: false,
        json: { ...Object(byId(id)), [key]: [] }
      }))
    },
    { weight: 1, arbitrary: idText.map((id): Drawn => ({ byId: false, json: { id: byId(id) } })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((json): Drawn => ({ byId: false, json })) }
  )

const jsonOf = (read: (typeof reads)[number], selector: Drawn): unknown => (selector.byId ? read.byId(selector.id) : selector.json)

/** A body of one selector or several (A takes an array only), and whether it is of selectors by id whose ids are short. */
const bodies = fc.constantFrom(...reads).chain((read) =>
  fc.oneof(fc.array(drawn(read.byId), { maxLength: 3 }), drawn(read.byId)).map((drawnBody) => {
    const all = Array.isArray(drawnBody) ? drawnBody : [drawnBody]
    const body: unknown = JSON.parse(JSON.stringify(Array.isArray(drawnBody) ? all.map((s) => jsonOf(read, s)) : jsonOf(read, drawnBody)))
    const shortById = (read.name.startsWith("B") || Array.isArray(drawnBody)) &&
      all.every((s) => s.byId && typeof s.id === "string" && s.id.length <= 256)
    return { read, body, shortById }
  })
)

law("selectors by id: a body told without the schema is one the strict schema accepts, read as the same model", {
  of: "bodies told without the schema",
  floor: 0.2
}, 3_000, (note) =>
  fc.property(bodies, ({ read, body, shortById }) => {
    const strict = bodyReaders[read.name].readStrictly(body)
    const told = read.surely(body)
    if (told) expect(Result.isSuccess(strict)).toBe(true)
    if (Result.isSuccess(strict) && shortById) expect(told).toBe(true)
    expect(oneLine(bodyReaders[read.name].read(body))).toBe(oneLine(strict))
    note(told)
  }))

describe("a body of selectors by id", () => {
  it("is told without the schema in both vocabularies", () => {
    expect(A.GetSelectorsJson.surely?.([{ id: { Exactly: "getter:lamp@home" } }])).toBe(true)
    expect(B.GetterSelectorsJson.surely?.({ id: "getter:lamp@home" })).toBe(true)
    expect(B.GetterSelectorsJson.surely?.([{ id: "getter:lamp@home" }, { id: "getter:fan@home" }])).toBe(true)
  })

  it("leaves to the schema an id the rule refuses, and its words", () => {
    expect(A.GetSelectorsJson.surely?.([{ id: { Exactly: "a\u0000b" } }])).toBe(false)
    expect(bodyReaders["A get_channel_value"].read([{ id: { Exactly: "a\u0000b" } }])).toMatchObject({
      _tag: "Failure",
      failure: { reason: expect.stringContaining("control characters") }
    })
  })
})
