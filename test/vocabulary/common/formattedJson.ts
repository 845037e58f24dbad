import * as fc from "fast-check"

/**
 * JSON text as people and other programs write it, not as `JSON.stringify` does: random whitespace
 * between tokens, any character of a string or a key written raw (where JSON allows), with its short
 * escape, or as `\uXXXX` in either case, numbers spelled every way JSON allows (`1e2`, `-0`, `1.0E-3`),
 * repeated keys. Keys are short and often escaped, so that the keys of the texts one process reads share
 * their decoded lengths: what V8's escaped-key fault needs (src/vocabulary/common/EscapedJson.ts).
 */

const whitespace = fc.array(fc.constantFrom(" ", "\t", "\n", "\r"), { maxLength: 2 }).map((chars) => chars.join(""))

const shortEscapes: Readonly<Record<string, string>> = {
  "\"": "\\\"", "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"
}

/** One UTF-16 code unit as a string holds it: raw if JSON lets it be, its short escape, or `\uXXXX`. */
const written = (unit: string, how: number, upper: boolean): string => {
  const code = unit.charCodeAt(0)
  const raw = unit !== "\"" && unit !== "\\" && code >= 0x20
  const short = shortEscapes[unit]
  if (how === 0 && raw) return unit
  if (how === 1 && short !== undefined) return short
  const hex = code.toString(16).padStart(4, "0")
  return `\\u${upper ? hex.toUpperCase() : hex}`
}

/** A character of any kind: what JSON must escape, ASCII, any code unit (lone surrogates too), or beyond the BMP. */
const character = fc.oneof(
  fc.constantFrom("\"", "\\", "/", "\n", "\u0000", "\u001f", "\u007f", "a", "é"),
  fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((code) => String.fromCodePoint(code))
)

/**
 * A character of a key: mostly from a few, a backslash first among them, so that objects share their first
 * keys and a key holding a backslash plants the transition another escaped key of its length then follows.
 */
const keyCharacter = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom("\\", "\\", "\n", "\"", "\u0000", "a", "é", "\ud800") },
  { weight: 1, arbitrary: character }
)

/** A string token: each code unit of its characters written its own way (a surrogate pair can be half escaped). */
const stringToken = (minLength: number, maxLength: number, of = character) =>
  fc.array(fc.tuple(of, fc.nat(2), fc.boolean()), { minLength, maxLength }).map((parts) =>
    `"${parts.map(([chars, how, upper]) => chars.split("").map((unit) => written(unit, how, upper)).join("")).join("")}"`
  )

const digits = (minLength: number) => fc.array(fc.constantFrom(..."0123456789"), { minLength, maxLength: 3 }).map((d) => d.join(""))

/** A number as JSON spells it: sign, integer part without leading zeros, fraction, exponent with `e` or `E` and its sign. */
const numberToken = fc.tuple(
  fc.constantFrom("", "-"),
  fc.oneof(fc.constant("0"), fc.tuple(fc.constantFrom(..."123456789"), digits(0)).map(([first, rest]) => first + rest)),
  fc.option(digits(1).map((d) => `.${d}`), { nil: "" }),
  fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), digits(1)).map((parts) => parts.join("")), { nil: "" })
).map((parts) => parts.join(""))

const literal = fc.constantFrom("true", "false", "null")

/** A text written, and whether it holds an object key written with an escape (the texts the fault needs). */
export interface Written {
  readonly text: string
  readonly escapedKey: boolean
}

const plain = (token: fc.Arbitrary<string>): fc.Arbitrary<Written> => token.map((text) => ({ text, escapedKey: false }))

const around = (token: fc.Arbitrary<string>) => fc.tuple(whitespace, token, whitespace).map((parts) => parts.join(""))

const joined = (open: string, parts: ReadonlyArray<Written>, close: string): fc.Arbitrary<Written> =>
  (parts.length === 0 ? whitespace : fc.constant("")).map((ws) => ({
    text: `${open}${ws}${parts.map(({ text }) => text).join(",")}${close}`,
    escapedKey: parts.some(({ escapedKey }) => escapedKey)
  }))

const spaced = (written: fc.Arbitrary<Written>) =>
  fc.tuple(whitespace, written, whitespace).map(([before, { text, escapedKey }, after]) => ({ text: before + text + after, escapedKey }))

const { value, object } = fc.letrec<{ value: Written; array: Written; object: Written }>((tie) => ({
  value: fc.oneof({ depthSize: "small" }, plain(literal), plain(numberToken), plain(stringToken(0, 6)), tie("array"), tie("object")),
  array: fc.array(spaced(tie("value")), { maxLength: 4 }).chain((items) => joined("[", items, "]")),
  object: fc.array(fc.tuple(around(stringToken(1, 2, keyCharacter)), spaced(tie("value"))), { maxLength: 4 })
    .map((fields) => fields.map(([key, { text, escapedKey }]) => ({ text: `${key}:${text}`, escapedKey: escapedKey || key.includes("\\") })))
    .chain((fields) => joined("{", fields, "}"))
}))

/** A whole JSON text, whitespace around it included; most of them objects. */
export const formattedJson: fc.Arbitrary<Written> = spaced(fc.oneof({ weight: 3, arbitrary: object }, { weight: 1, arbitrary: value }))
