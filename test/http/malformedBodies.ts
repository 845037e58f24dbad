import * as fc from "fast-check"
import { valueTypes } from "../../src/domain/ValueType.ts"

/**
 * The pieces both vocabularies' malformed-body properties are built from (docs/reference.md §1–§2, §9): what no
 * identifier, tag or value may be, and how a body is sent broken. Each vocabulary's test adds the
 * near-misses of its own shapes.
 */

export const windSpeedKind = { vendor: "acme", adapter: "weather", kind: "wind-speed", type: "ExtNumeric" }

/** Valid values; bare `null` is FoxBox's Unit, which input accepts (docs/reference.md §2). */
export const someValue = fc.constantFrom<unknown>({ OnOff: "On" }, { Unit: null }, null, { DoorLocked: "Locked" }, { Duration: 1.5 })

/** Not an identifier, a tag, a tag list or a constraint, and never JSON null. */
export const scalar = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.string({ maxLength: 8 })
)

/** An object with one key that is no vocabulary A constraint's (`Exactly`, `Empty`, `Conflict`). */
export const someObject = fc
  .tuple(fc.string({ maxLength: 8 }).filter((k) => !["Exactly", "Empty", "Conflict"].includes(k)), fc.jsonValue({ maxDepth: 1 }))
  .map(([key, value]) => Object.fromEntries([[key, value]]))

export const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }), someObject)

/** A string no identifier or tag may be (docs/reference.md §1, §9): empty, over 256 characters, or with a control character. */
export const badText = fc.oneof(
  fc.constant(""),
  fc.integer({ min: 257, max: 300 }).map((n) => "x".repeat(n)),
  fc
    .tuple(
      fc.string({ maxLength: 5 }),
      fc.constantFrom("\u0000", "\t", "\n", "\u001b", "\u001f", "\u007f", "\u0085", "\u009f"),
      fc.string({ maxLength: 5 })
    )
    .map(([before, control, after]) => before + control + after)
)

const tooDeep = (() => {
  let json: unknown = 0
  for (let i = 0; i < 300; i++) json = [json]
  return { Json: json }
})()

/** Not a Value of any type (docs/reference.md §2; bare `null` and any payload inside `Unit` are Unit, so they are not here). */
export const badValue = fc.oneof(
  fc.constantFrom<unknown>(
    { OnOff: "on" },
    { OnOff: true },
    { OnOff: [] },
    { OnOff: "On", OpenClosed: "Open" },
    { OpenClosed: "Ajar" },
    { DoorLocked: null },
    { Duration: -1 },
    { Duration: "60" },
    { Color: { h: 0, s: 2, v: 0 } },
    { Color: { h: 0, s: 0, v: -0.5 } },
    { Color: { h: "0", s: 0, v: 0 } },
    { Color: { h: 0, s: 0 } },
    { Color: { h: 0, s: 0, v: 0, a: 1 } },
    { Temperature: { K: 300 } },
    { Temperature: 21 },
    { TimeStamp: "yesterday" },
    { TimeStamp: "2026-11-22T06:00:00" },
    { TimeStamp: "2026-02-30T06:00:00Z" },
    { String: 5 },
    { String: null },
    { Binary: { data: [256], mimetype: "image/png" } },
    { Binary: { data: [1.5], mimetype: "image/png" } },
    { Binary: { data: [1] } },
    { ExtBool: { value: 1, vendor: "v", adapter: "a", kind: "k" } },
    { ExtNumeric: { value: "3", vendor: "v", adapter: "a", kind: "k" } },
    { Exactly: { OnOff: "On" } },
    { Ok: { OnOff: "On" } },
    tooDeep,
    {},
    [],
    "On",
    1,
    true
  ),
  fc.string({ maxLength: 10 }).filter((type) => !valueTypes.some((t) => t === type)).map((type) => Object.fromEntries([[type, null]]))
)

/** `item` put into `items` at a place chosen by `i`. */
export const insertAt = <A>(items: ReadonlyArray<A>, item: A, i: number): Array<A> => {
  const out = [...items]
  out.splice(i % (items.length + 1), 0, item)
  return out
}

/** A field name outside `known`: often one of another selector or of the other vocabulary, else any string. */
const unknownKey = (known: ReadonlyArray<string>) =>
  fc
    .oneof(
      fc.constantFrom(
        "service",
        "service_tags",
        "getters",
        "setters",
        "parent",
        "kind",
        "inputs",
        "outputs",
        "node",
        "mechanism",
        "select",
        "Exactly"
      ),
      fc.string({ maxLength: 10 })
    )
    .filter((k) => !known.includes(k))

/** `object` with one more field, named like none of `known`. */
export const withUnknownField = (object: fc.Arbitrary<Record<string, unknown>>, known: ReadonlyArray<string>) =>
  fc
    .tuple(object, unknownKey(known), fc.jsonValue({ maxDepth: 1 }))
    .map(([o, key, value]) => Object.fromEntries([...Object.entries(o), [key, value]]))

/** `object` with `field` replaced by something it cannot hold. */
export const withBadField = (object: fc.Arbitrary<Record<string, unknown>>, fields: Readonly<Record<string, fc.Arbitrary<unknown>>>) =>
  fc
    .tuple(object, fc.constantFrom(...Object.keys(fields)))
    .chain(([o, field]) => (fields[field] ?? fc.constant(1)).map((bad) => ({ ...o, [field]: bad })))

const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** Text that is not JSON: random text, or a valid body cut short (a cut object or array never parses). */
const notJson = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim() !== "" && !parses(text)),
    fc.tuple(valid.map((json) => JSON.stringify(json)), fc.nat()).map(([text, n]) => text.slice(0, 1 + (n % (text.length - 1))))
  )

/** Every field name of every body and selector of both vocabularies: a key outside these is unknown everywhere. */
const knownAnywhere = [
  "id",
  "parent",
  "tags",
  "kind",
  "inputs",
  "outputs",
  "set",
  "value",
  "service",
  "service_tags",
  "getters",
  "setters",
  "services",
  "select"
]
const unknownEverywhere = fc.string({ maxLength: 10 }).filter((k) => !knownAnywhere.includes(k))

/** Random JSON of the shape of a body (objects, or arrays of them) whose every key is unknown to every route. */
const randomJson = fc.oneof(
  fc.dictionary(unknownEverywhere, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }),
  fc.array(fc.dictionary(unknownEverywhere, fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 2 }), { minLength: 1, maxLength: 3 })
)

/**
 * A valid body with one field (or the body itself) replaced by arrays or objects nested past the body
 * limit (600 to 20,000 levels), in text, so that nothing recursive builds it.
 */
const tooDeeplyNested = (valid: fc.Arbitrary<unknown>) =>
  fc
    .tuple(valid.map((json) => JSON.stringify(json)), fc.nat(), fc.integer({ min: 600, max: 20_000 }), fc.boolean())
    .map(([text, n, depth, arrays]) => {
      const deep = arrays ? "[".repeat(depth) + "]".repeat(depth) : "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)
      // Replace one JSON scalar (a string, number, true, false or null) of the valid body, or the body.
      // Keys are matched too, whole, so that the scan never starts inside a string, then left out.
      const tokens = [...text.matchAll(/"(?:[^"\\]|\\.)*"(\s*:)?|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null/g)]
      const scalars = tokens.filter((token) => token[1] === undefined)
      const scalar = scalars[n % (scalars.length + 1)]
      return scalar?.index === undefined ? deep : text.slice(0, scalar.index) + deep + text.slice(scalar.index + scalar[0].length)
    })

/**
 * A body as sent: JSON text with one defect, random JSON of no body's shape, text that is not JSON, or
 * a body nested too deep in some field.
 */
export const sent = (bad: fc.Arbitrary<unknown>, valid: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 4, arbitrary: bad.map((json) => JSON.stringify(json)) },
    { weight: 1, arbitrary: randomJson.map((json) => JSON.stringify(json)) },
    { weight: 1, arbitrary: notJson(valid) },
    { weight: 1, arbitrary: tooDeeplyNested(valid) }
  )
