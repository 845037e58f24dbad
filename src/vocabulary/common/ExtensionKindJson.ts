import { Schema, SchemaTransformation } from "effect"
import { Kind } from "../../domain/Kind.ts"
import { ValueTypeJson } from "./ValueJson.ts"

/**
 * An extension kind's fields, the same in both vocabularies (wire.md §3): `{"vendor", "adapter", "kind",
 * "type"}`, `type` naming the value type its channels carry. A writes them under `{"Extension": …}`, B bare.
 */
export type ExtensionKind = Extract<Kind, { readonly _tag: "Extension" }>

export const ExtensionKindJson = Schema.Struct({
  vendor: Schema.String,
  adapter: Schema.String,
  kind: Schema.String,
  type: ValueTypeJson
}).annotate({
  identifier: "ExtensionKind",
  expected: "an extension kind",
  description: "A kind defined by an adapter, with the value type it carries."
}).pipe(
  Schema.decodeTo(
    Kind.cases.Extension,
    SchemaTransformation.transform({
      decode: (e) => ({ _tag: "Extension", vendor: e.vendor, adapter: e.adapter, kind: e.kind, type: e.type }) as const,
      encode: (k) => ({ vendor: k.vendor, adapter: k.adapter, kind: k.kind, type: k.type })
    })
  )
)
