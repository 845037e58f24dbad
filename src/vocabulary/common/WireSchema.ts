import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { describeJson, isJsonObject } from "./DescribeJson.ts"
import { checked, type Wire, type WirePart } from "./WireShape.ts"

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

/**
 * How a choice of `{"<key>": payload}` forms explains a refused input, by the key the client wrote:
 * `expected <what>, got …` for anything but an object of one key, the form the key names (`formOf`), or
 * `unknownKey(key)` for a key no form has.
 */
export const explainKeyed = (
  what: string,
  formOf: (key: string) => Schema.Decoder<unknown> | undefined,
  unknownKey: (key: string) => string
): Explain =>
(input) => {
  if (!isJsonObject(input)) return expectedGot(what, input)
  const keys = Object.keys(input)
  const [key] = keys
  if (key === undefined || keys.length > 1) return `expected ${what}, got an object with ${keys.length} keys`
  return formOf(key) ?? unknownKey(key)
}

/**
 * A check of a wire schema that JSON Schema cannot state (a timestamp's calendar, a service's own
 * channels…): the document leaves it to the gateway, and still shows the annotations put after it (a
 * schema's name and description live on its last check).
 */
export const wireCheck = <T>(check: (input: T) => Schema.FilterOutput): SchemaAST.Filter<T> =>
  Schema.makeFilter(check, { toJsonSchema: () => ({}) })

/** A field set to `null` reads as absent where clients serialise a missing optional so (B's scalar selector fields). */
export const nullable = <S extends Schema.Top & Schema.Decoder<unknown>>(schema: S) =>
  // Only a present, non-null value can fail: its own schema explains it.
  Schema.NullOr(schema).annotate(explainedBy(() => schema))

/** Whether one-or-many JSON is the many. */
const isMany = <W>(json: W | ReadonlyArray<W>): json is ReadonlyArray<W> => Array.isArray(json)

/**
 * One `item` or an array of them, read as an array (docs/reference.md §4's `sel(s)`); written as an array.
 * Anything else is `expected <what> or an array of them, got …`. The items are objects, never arrays.
 */
export const oneOrMany = <T, W>(
  item: WirePart<T, W>,
  what: string,
  annotations: Schema.Annotations.Annotations = {}
): WirePart<ReadonlyArray<T>, W | ReadonlyArray<W>> => {
  const many = Schema.Array(item.wire)
  return {
    wire: Schema.Union([many, item.wire]).annotate({
      ...annotations,
      ...explainedBy((input) =>
        Array.isArray(input) ? many : isJsonObject(input) ? item.wire : expectedGot(`${what} or an array of them`, input)
      )
    }),
    read: (json) => (isMany(json) ? json.map(item.read) : [item.read(json)]),
    write: (all) => all.map(item.write)
  }
}

/** The form `{"<key>": payload}` of one variant of the model: a member of a `keyedUnion`. */
export interface KeyedForm<V> {
  readonly key: string
  readonly wire: Wire<unknown>
  /** Reads JSON the form's wire schema accepted. */
  readonly read: (json: unknown) => V
  readonly write: (variant: V) => unknown
}

/**
 * The form `{"<key>": payload}` of one variant of the model: `toModel` reads the payload as the variant,
 * `toPayload` writes the variant as its payload.
 */
export const keyedForm = <const K extends string, V, P, PW>(
  key: K,
  payload: WirePart<P, PW>,
  toModel: (payload: P) => V,
  toPayload: (variant: V) => P
): KeyedForm<V> => ({
  key,
  wire: Schema.Struct({ [key]: payload.wire }),
  // The union hands a form only JSON its wire schema accepted: an object with the key.
  read: (json) => toModel(payload.read((json as { readonly [k in K]: PW })[key])),
  write: (variant) => ({ [key]: payload.write(toPayload(variant)) })
})

type Forms<T extends { readonly _tag: string }> = { readonly [Tag in T["_tag"]]: KeyedForm<Extract<T, { readonly _tag: Tag }>> }

/** A form of some variant, as a union holds it: it is only ever given its own variant and its own JSON. */
interface AnyForm {
  readonly key: string
  readonly wire: Wire<unknown>
  readonly read: (json: unknown) => unknown
  readonly write: (variant: never) => unknown
}

/**
 * Forms written `{"<key>": payload}`, one key naming the form (values, kinds, errors, events,
 * constraints…), one per variant of the model (`forms`, by the variant's tag). A failure is explained by
 * the key the client wrote (`explainKeyed`).
 */
export const keyedUnion = <T extends { readonly _tag: string }>(
  forms: Forms<T>,
  what: string,
  unknownKey: (key: string) => string
): WirePart<T, unknown> => {
  const byTag: Readonly<Record<string, AnyForm>> = forms
  const all = Object.values(byTag)
  const byKey = new Map(all.map((form) => [form.key, form]))
  const formOf = (json: unknown): AnyForm | undefined => {
    const [key] = Object.keys(json as object)
    return key === undefined ? undefined : byKey.get(key)
  }
  return {
    wire: Schema.Union(all.map((form) => form.wire)).annotate(explainedBy(explainKeyed(what, (key) => byKey.get(key)?.wire, unknownKey))),
    read: (json) => {
      const form = formOf(json)
      // The wire schema accepts only objects whose one key names a form, and a form reads its variant of T.
      return checked(form === undefined ? Result.fail(`no form for ${describeJson(json)}`) : Result.succeed(form.read(json) as T))
    },
    // The variant's own tag picks its form.
    write: (value) => byTag[value._tag]?.write(value as never)
  }
}
