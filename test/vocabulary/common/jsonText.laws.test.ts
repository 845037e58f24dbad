import * as fc from "fast-check"
import { Result } from "effect"
import { afterAll, expect } from "vitest"
import { parseJson } from "../../../src/vocabulary/common/JsonText.ts"
import { freshParsers } from "../../support/freshJsonParse.ts"
import { jsonTree } from "../../support/jsonTree.ts"
import { law } from "../../laws/law.ts"
import { formattedJson } from "./formattedJson.ts"

/**
 * The law of the gateway's one JSON reader (docs/laws.md): it reads back what `JSON.stringify` wrote,
 * whatever it read before. V8's `JSON.parse` does not, for escaped object keys, once an earlier text made
 * an object with a key of the same length holding a backslash (src/vocabulary/common/EscapedJson.ts). So
 * the keys are short and drawn from few characters, most of which JSON escapes (a backslash, a quote, a
 * control character, lone surrogates), for objects of one process to share their first keys and lengths.
 */
const keyChar = fc.constantFrom("\\", "\"", "\n", "\u0000", "\u001f", "\ud800", "\udc00", "/", "\u00e9", "a")
const key = fc.oneof(
  { weight: 9, arbitrary: fc.array(keyChar, { maxLength: 3 }).map((chars) => chars.join("")) },
  { weight: 1, arbitrary: fc.constant("__proto__") }
)
const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x)), // JSON writes -0 as 0
  fc.array(keyChar, { maxLength: 3 }).map((chars) => chars.join(""))
)
const { object } = fc.letrec<{ json: unknown; object: unknown }>((tie) => ({
  json: fc.oneof({ depthSize: "small" }, leaf, tie("object"), fc.array(tie("json"), { maxLength: 3 })),
  // Object.fromEntries makes `__proto__` an own field, as JSON.parse does.
  object: fc.uniqueArray(fc.tuple(key, tie("json")), { maxLength: 4, selector: ([k]) => k }).map((fields) => Object.fromEntries(fields))
}))

/** Whether `json` holds an object with a key JSON writes with an escape. */
const hasEscapedKey = (json: unknown): boolean => {
  const pending = [json]
  while (pending.length > 0) {
    const item = pending.pop()
    if (item === null || typeof item !== "object") continue
    if (!Array.isArray(item) && Object.keys(item).some((k) => JSON.stringify(k).includes("\\"))) return true
    pending.push(...Object.values(item))
  }
  return false
}

law("JSON text: parseJson reads back what JSON.stringify wrote, whatever it read before", { of: "texts with an escaped object key", floor: 0.5 }, 300, (note) =>
  fc.property(fc.array(object, { minLength: 1, maxLength: 6 }), (values) => {
    for (const value of values) {
      note(hasEscapedKey(value))
      const read = parseJson(JSON.stringify(value))
      expect(Result.isSuccess(read) && read.success).toStrictEqual(value)
    }
  }))

/**
 * parseJson against the reading of a JSON.parse that has parsed nothing else: a worker of its own per
 * text (test/support/freshJsonParse.ts), while this process has read every text before. On formatted
 * text (whitespace, escapes of any character, number spellings: formattedJson.ts), valid or not.
 */
const fresh = freshParsers(2)
afterAll(() => fresh.close())

law("JSON text: parseJson reads formatted text as a JSON.parse that has parsed nothing else", { of: "texts with an escaped object key", floor: 0.3 }, { laws: 100, npmTest: 40 }, (note) =>
  fc.asyncProperty(formattedJson, async ({ text, escapedKey }) => {
    note(escapedKey)
    const read = parseJson(text)
    expect(Result.isSuccess(read) ? { tree: jsonTree(read.success) } : { error: read.failure }).toStrictEqual(await fresh.parse(text))
  }), 120_000)
