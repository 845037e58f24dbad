import * as fc from "fast-check"
import { codePoint } from "../../arbitraries/codePoint.ts"
import { expect } from "vitest"
import { jsonListBytes } from "../../../src/vocabulary/common/JsonListBytes.ts"
import { law } from "../../laws/law.ts"

/**
 * A list's JSON written in parts (src/vocabulary/common/JsonListBytes.ts) is byte for byte the UTF-8 of
 * `JSON.stringify` of the list written whole. Items are JSON trees holding text of any characters (lone
 * surrogates, which JSON writes escaped, included), some of them long, so that a list's text spans
 * several parts of 64 Ki characters and a part ends after any kind of item.
 */
const longText = fc.tuple(fc.string({ unit: "grapheme", minLength: 1, maxLength: 4 }), fc.integer({ min: 1_000, max: 30_000 }))
  .map(([s, n]) => s.repeat(n))
const text = fc.oneof(fc.string({ unit: "grapheme", maxLength: 8 }), fc.string({ unit: codePoint, maxLength: 8 }))
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    text,
    fc.array(tie("json"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), tie("json"), { maxKeys: 3 })
  )
}))
const partLength = 64 * 1024

law("JSON list bytes: a list written in parts is the UTF-8 of JSON.stringify of the list written whole", { of: "lists whose text spans several parts", floor: 0.2 }, 100, (note) =>
  fc.property(fc.array(fc.oneof(json, longText), { maxLength: 12 }), (items) => {
    const whole = JSON.stringify(items)
    note(whole.length > 2 * partLength)
    // Written through a function of each item, as a shape writes its items: here, wrapped in an object.
    const written = jsonListBytes(items, (item) => ({ item }))
    expect(Buffer.from(written).equals(Buffer.from(JSON.stringify(items.map((item) => ({ item })))))).toBe(true)
  }))
