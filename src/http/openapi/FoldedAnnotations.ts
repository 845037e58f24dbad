import type * as JsonSchema from "effect/JsonSchema"

/**
 * Effect's JSON Schema output puts the description of a field whose schema is a `$ref` or an `anyOf`
 * in an `allOf` member of its own: `{"anyOf": [A, null], "allOf": [{"description": "…"}]}`. That is
 * valid, but a generator of client types reads the member as a schema that accepts anything, and types
 * the field `unknown | A | null`, so a client's wrong value type-checks. Annotations are written on the
 * schema itself instead (JSON Schema 2020-12 allows them beside `$ref`), and an `allOf` left with one
 * member is that member.
 */

type Json = JsonSchema.JsonSchema

/** Keywords that annotate and constrain nothing: a member of these alone accepts anything. */
const annotations = new Set(["description", "title", "examples", "default", "deprecated", "readOnly", "writeOnly"])

/** Keywords whose values are JSON data, not schemas: nothing in them is folded. */
const data = new Set(["examples", "default", "const", "enum"])

const isObject = (json: unknown): json is Json => typeof json === "object" && json !== null && !Array.isArray(json)

const onlyAnnotates = (member: unknown): member is Json =>
  isObject(member) && Object.keys(member).length > 0 && Object.keys(member).every((key) => annotations.has(key))

/**
 * `allOf`'s annotation members merged into the schema (its own annotations win). A member left alone is
 * merged too when the schema only annotates it (keywords of one schema object can read each other, as
 * `additionalProperties` reads `properties`: a schema that constrains keeps its `allOf`).
 */
const foldAllOf = (schema: Json): Json => {
  const { allOf, ...rest } = schema
  if (!Array.isArray(allOf)) return schema
  const notes = allOf.filter(onlyAnnotates)
  const members = allOf.filter((member) => !onlyAnnotates(member))
  if (notes.length === 0) return schema
  const annotated: Json = Object.assign({}, ...notes, rest)
  const [only, ...others] = members
  if (only === undefined) return annotated
  const alone = isObject(only) && others.length === 0 && Object.keys(only).every((key) => !(key in annotated))
  return alone && Object.keys(rest).every((key) => annotations.has(key)) ? { ...only, ...annotated } : { ...annotated, allOf: members }
}

const foldValue = (json: unknown): unknown =>
  Array.isArray(json) ? json.map(foldValue) : isObject(json) ? foldAnnotations(json) : json

/** The schema with its annotation-only `allOf` members folded into the schemas they annotate, at every depth. */
export const foldAnnotations = (schema: Json): Json =>
  foldAllOf(Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, data.has(key) ? value : foldValue(value)])))
