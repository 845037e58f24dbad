import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { nestsDeeperThan, parseJson } from "../../../src/vocabulary/common/JsonText.ts"

/** The JSON of `text`; fails the test with the parser's message when it is not JSON. */
const read = (text: string): unknown => {
  const json = parseJson(text)
  if (Result.isFailure(json)) expect.fail(`expected JSON, got: ${json.failure}`)
  return json.success
}

/** Goes `depth` levels down the first item of nested arrays, without recursion. */
const down = (json: unknown, depth: number): unknown => {
  let inner = json
  for (let level = 0; level < depth; level++) inner = Array.isArray(inner) ? inner[0] : undefined
  return inner
}

describe("parseJson", () => {
  // V8's JSON.parse reads such a key as the earlier key of the same decoded length that its source
  // characters begin with (src/vocabulary/common/EscapedJson.ts): planted, it reads `"\n"` as `"\\"`.
  describe("reads an escaped object key as written, whatever text was read before", () => {
    for (
      const [source, key] of [
        ["\\n", "\n"],
        ["\\\"", "\""],
        ["\\u0000", "\u0000"],
        ["\\ud800", "\ud800"],
        ["\\/", "/"],
        ["a\\u00e9", "a\u00e9"],
        ["\\t\\\\", "\t\\"]
      ] as const
    ) {
      it(`"${source}"`, () => {
        const planted = JSON.stringify({ a: 0, [source.slice(0, key.length)]: 1 })
        read(planted)
        expect(Object.keys(read(`{"a":0,"${source}":1}`) as object)).toEqual(["a", key])
        expect(read(`[{"a":0,"${source}":1}]`)).toEqual([{ a: 0, [key]: 1 }])
      })
    }
  })

  it("reads every kind of value of a text with a backslash as JSON.parse does", () => {
    const text = ` { "n" : [ -0, 0, 1e3, 2.5E-2, -12, 1.7976931348623157e308, 5e-324 ] , "t": true, "f":false, "z" :null,
      "s": "\\t\\b\\f\\r\\u2028\\ud83d\\ude00", "e": "", "o": {}, "a": [], "k\\u0041": [{"x": "y"}, "\\\\"] } `
    expect(read(text)).toStrictEqual(JSON.parse(text))
    expect(Object.is((read(text) as { n: Array<number> }).n[0], -0)).toBe(true)
    expect(read(`"\\n"`)).toBe("\n")
    expect(read(`  -1.5e2\n`)).toBe(-150)
  })

  it("keeps __proto__ an own field, as JSON.parse does, and the prototype that of any object", () => {
    const json = read(`{"__proto__": {"polluted": true}, "b": "\\n"}`)
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype)
    expect(Object.entries(json as object)).toEqual([["__proto__", { polluted: true }], ["b", "\n"]])
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
  })

  it("reads a repeated key as JSON.parse does: its last value, at the place of its first", () => {
    const json = read(`{"a": 1, "b\\n": 2, "a": 3, "b\\n": 4}`)
    expect(Object.entries(json as object)).toEqual([["a", 3], ["b\n", 4]])
  })

  it("reads a text with a backslash nested 100,000 levels deep", () => {
    const depth = 100_000
    expect(down(read("[".repeat(depth) + `{"k\\n": "v\\t"}` + "]".repeat(depth)), depth)).toEqual({ "k\n": "v\t" })
    const objects = read(`{"a\\"":`.repeat(depth) + "1" + "}".repeat(depth))
    let inner = objects
    for (let level = 0; level < depth; level++) inner = (inner as Record<string, unknown>)["a\""]
    expect(inner).toBe(1)
  })

  it("fails with the parser's message, with or without a backslash", () => {
    expect(parseJson(`{"a": "\\n",}`)).toEqual(Result.fail(expect.stringContaining("JSON")))
    expect(parseJson(`"\\x"`)).toEqual(Result.fail(expect.stringContaining("JSON")))
    expect(parseJson("")).toEqual(Result.fail("Unexpected end of JSON input"))
  })
})

describe("nestsDeeperThan", () => {
  it("counts the arrays and objects open, up to the limit and past it", () => {
    expect(nestsDeeperThan("[[{\"a\": []}]]", 4)).toBe(false)
    expect(nestsDeeperThan("[[{\"a\": [[]]}]]", 4)).toBe(true)
    expect(nestsDeeperThan("[[], {\"a\": 1}, [2], {}]", 2)).toBe(false) // siblings are not deeper
    expect(nestsDeeperThan("1", 0)).toBe(false)
    expect(nestsDeeperThan("[]", 0)).toBe(true)
  })

  it("leaves out brackets in strings, escaped quotes and backslashes included", () => {
    expect(nestsDeeperThan("[\"[[[{{{\"]", 1)).toBe(false)
    expect(nestsDeeperThan("[\"\\\"[[[\", \"\\\\\", [[]]]", 2)).toBe(true) // ["\"[[[", "\\", [[]]]
    expect(nestsDeeperThan("[\"\\\"[[[\", \"\\\\\", []]", 2)).toBe(false)
    expect(nestsDeeperThan("{\"[[\\u005b\": [\"]]]]\"]}", 2)).toBe(false)
  })
})
