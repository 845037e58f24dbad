import { Schema, SchemaAST, SchemaTransformation } from "effect"
import { describeJson, isJsonObject } from "./DescribeJson.ts"

/**
 * The vocabulary of wire shapes: what a wire `Schema` adds to Effect's, so that one description of a
 * shape gives the decoder, the encoder, the JSON Schema of the OpenAPI document and the arbitrary, and
 * its failures read in the client's words (`WireIssue.ts` turns them into messages).
 *
 * - `expected` (Effect's annotation) names the shape in messages: `expected a GetterSelector, got 3`;
 *   on a struct it also introduces its fields: `unknown field "kinds" (a GetterSelector takes id, …)`.
 * - `explainedBy` is how a schema explains a failure that its structure alone would describe poorly:
 *   a union says which of its members the client meant (and that member's own failure is the message),
 *   or gives the message itself (`unknown kind "Toaster" (known: …)`).
 */

/** What a schema says of an input it refused: the message, or the schema whose own failure on the input says it. */
export type Explanation = string | Schema.Decoder<unknown>

export type Explain = (input: unknown) => Explanation

/** The annotation key of `explainedBy`. */
export const explainKey = "gateway/explain"

/** An annotation: failures of this schema are explained by `explain`, given the input it refused. */
export const explainedBy = (explain: Explain): Schema.Annotations.Annotations => ({ [explainKey]: explain })

// Annotations are read as Effect resolves them: from the last check of a refined schema, else the node.
// A wire schema is therefore annotated after its checks.

/** How the schema of `ast` explains its failures, if it does. */
export const explanationOf = (ast: SchemaAST.AST): Explain | undefined => {
  const explain = SchemaAST.resolveAt<unknown>(explainKey)(ast)
  return typeof explain === "function" ? (explain as Explain) : undefined
}

/** What a shape is called in messages (`expected` annotation), if it has a name. */
export const expectedOf = (ast: SchemaAST.AST): string | undefined => {
  const expected = SchemaAST.resolveAt<unknown>("expected")(ast)
  return typeof expected === "string" ? expected : undefined
}

/** `expected X, got Y`: the message of an input of the wrong shape. */
export const expectedGot = (what: string, input: unknown): string => `expected ${what}, got ${describeJson(input)}`

/** A field set to `null` reads as absent where clients serialise a missing optional so (B's scalar selector fields). */
export const nullable = <S extends Schema.Top & Schema.Decoder<unknown>>(schema: S) =>
  // Only a present, non-null value can fail: its own schema explains it.
  Schema.NullOr(schema).annotate(explainedBy(() => schema))

/**
 * One `item` or an array of them, decoded as an array (wire.md §4's `sel(s)`); written as an array.
 * Anything else is `expected <what> or an array of them, got …`.
 */
export const oneOrMany = <S extends Schema.Top & Schema.Decoder<unknown>>(
  item: S,
  what: string,
  annotations: Schema.Annotations.Annotations = {}
) => {
  const many = Schema.Array(item)
  return Schema.Union([many, item]).annotate({
    ...annotations,
    ...explainedBy((input) =>
      Array.isArray(input) ? many : isJsonObject(input) ? item : expectedGot(`${what} or an array of them`, input)
    )
  }).pipe(Schema.decodeTo(
    Schema.toType(many),
    SchemaTransformation.transform({
      decode: (one): ReadonlyArray<S["Type"]> => (Array.isArray(one) ? one : [one]) as ReadonlyArray<S["Type"]>,
      encode: (all) => all
    })
  ))
}

/**
 * Forms written `{"<key>": payload}`, one key naming the form (values, kinds, errors, events,
 * constraints…): the union of `forms`, each the schema of its object. A failure is explained by the key
 * the client wrote: `expected <what>, got …` for anything but an object of one key, `unknownKey(key)` for
 * a key no form has, and the failure of the form it names otherwise.
 */
export const keyedUnion = <const Forms extends Readonly<Record<string, Schema.Top & Schema.Decoder<unknown>>>>(
  forms: Forms,
  what: string,
  unknownKey: (key: string) => string
) =>
  Schema.Union((Object.keys(forms) as ReadonlyArray<keyof Forms>).map((key) => forms[key])).annotate(explainedBy((input) => {
    if (!isJsonObject(input)) return expectedGot(what, input)
    const keys = Object.keys(input)
    const [key] = keys
    if (key === undefined || keys.length > 1) return `expected ${what}, got an object with ${keys.length} keys`
    const form = Object.hasOwn(forms, key) ? forms[key] : undefined
    return form ?? unknownKey(key)
  }))

/**
 * The form `{"<key>": payload}` of one variant of the model (`target`): `toModel` reads the payload as
 * the variant, `toPayload` writes the variant as its payload. The members of a `keyedUnion`.
 */
export const keyedForm = <const K extends string, P, PE, T extends object>(
  key: K,
  payload: Schema.Codec<P, PE>,
  target: Schema.Codec<T, unknown>,
  toModel: (payload: P) => NoInfer<T>,
  toPayload: (variant: T) => NoInfer<P>
) => {
  // Typed by hand: a struct with a computed key is beyond what the checker can see through.
  const wire: Schema.Codec<{ readonly [k in K]: P }, { readonly [k in K]: PE }> = Schema.Struct({ [key]: payload }) as never
  return wire.pipe(Schema.decodeTo(
    Schema.toType(target),
    SchemaTransformation.transform({
      decode: (json: { readonly [k in K]: P }) => toModel(json[key]),
      encode: (variant: T) => ({ [key]: toPayload(variant) }) as { readonly [k in K]: P }
    })
  ))
}
