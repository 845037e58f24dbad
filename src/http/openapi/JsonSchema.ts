/**
 * JSON Schema nodes (draft 2020-12, the dialect of OpenAPI 3.1) as typed data, with the few builders the
 * wire shapes need. Only the keywords used here are declared, so a misspelt keyword is a type error.
 */
export type JsonType = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string"

export interface JsonSchema {
  readonly $ref?: string
  readonly title?: string
  readonly description?: string
  readonly type?: JsonType
  readonly enum?: ReadonlyArray<string>
  readonly const?: string
  readonly format?: string
  readonly pattern?: string
  readonly minLength?: number
  readonly maxLength?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: JsonSchema | false
  readonly minProperties?: number
  readonly maxProperties?: number
  readonly items?: JsonSchema | false
  readonly prefixItems?: ReadonlyArray<JsonSchema>
  readonly minItems?: number
  readonly maxItems?: number
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly examples?: ReadonlyArray<unknown>
}

/** Named schemas, as they sit in `components.schemas`. */
export type Components = Readonly<Record<string, JsonSchema>>

export const schemaRefPrefix = "#/components/schemas/"

/** A reference to a component; a `$ref` may carry its own description in 3.1. */
export const ref = (name: string, description?: string): JsonSchema =>
  description === undefined ? { $ref: `${schemaRefPrefix}${name}` } : { $ref: `${schemaRefPrefix}${name}`, description }

export const nullSchema = (description?: string): JsonSchema =>
  description === undefined ? { type: "null" } : { type: "null", description }

/** `schema` or JSON `null`. */
export const nullable = (schema: JsonSchema, description?: string): JsonSchema => ({
  ...(description === undefined ? {} : { description }),
  oneOf: [schema, nullSchema()]
})

export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({
  ...(description === undefined ? {} : { description }),
  type: "array",
  items
})

/** Exactly two items, `[first, second]`. */
export const pair = (first: JsonSchema, second: JsonSchema, description?: string): JsonSchema => ({
  ...(description === undefined ? {} : { description }),
  type: "array",
  prefixItems: [first, second],
  items: false,
  minItems: 2,
  maxItems: 2
})

/** An object the codecs read field by field: any other key is a 400 that names it. */
export const closedObject = (
  properties: Readonly<Record<string, JsonSchema>>,
  required: ReadonlyArray<string>,
  description?: string
): JsonSchema => ({
  ...(description === undefined ? {} : { description }),
  type: "object",
  properties,
  ...(required.length === 0 ? {} : { required }),
  additionalProperties: false
})

/** `{"<key>": payload}`: how values, errors, kinds and A's wrappers name their variant. */
export const singleKey = (key: string, payload: JsonSchema, description?: string): JsonSchema => ({
  title: key,
  ...closedObject({ [key]: payload }, [key], description)
})

export const oneOf = (schemas: ReadonlyArray<JsonSchema>, description?: string): JsonSchema => ({
  ...(description === undefined ? {} : { description }),
  oneOf: schemas
})

export const described = (description: string, schema: JsonSchema): JsonSchema => ({ description, ...schema })
