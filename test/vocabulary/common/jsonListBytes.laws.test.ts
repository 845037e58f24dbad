import * as fc from "fast-check"
import { codePoint } from "../../arbitraries/codePoint.ts"
import { expect } from "vitest"
import { utf8Pieces } from "../../../src/http/routing/Utf8Pieces.ts"
import { jsonListText } from "../../../src/vocabulary/common/JsonListText.ts"
import { law } from "../../laws/law.ts"

/**
 * A list's JSON written in pieces (src/vocabulary/common/JsonListText.ts: each item stringified alone),
 * then made bytes piece by piece into one buffer (src/http/routing/Utf8Pieces.ts), is byte for byte the
 * UTF-8 of `JSON.stringify` of the list written whole. Items are JSON trees holding text of any
 * characters (lone surrogates, which JSON writes escaped, included), some of them long; the telling lists
 * hold text outside ASCII, whose UTF-8 is longer than the text.
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
law("JSON list bytes: a list written in pieces is the UTF-8 of JSON.stringify of the list written whole", { of: "lists holding text outside ASCII", floor: 0.2 }, 100, (note) =>
  fc.property(fc.array(fc.oneof(json, longText), { maxLength: 12 }), (items) => {
    // Written through a function of each item, as a shape writes its items: here, wrapped in an object.
    const expected = JSON.stringify(items.map((item) => ({ item })))
    const bytes = Buffer.from(expected)
    note(bytes.length > expected.length)
    // The pieces are made as they are read: read all of them here, as a short list's answer does.
    const pieces = [...jsonListText(items, (item) => ({ item }))]
    expect(pieces.join("")).toBe(expected)
    expect(Buffer.from(utf8Pieces(pieces)).equals(bytes)).toBe(true)
  }))
