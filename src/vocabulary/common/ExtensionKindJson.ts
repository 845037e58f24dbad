import { Schema } from "effect"
import { Kind } from "../../domain/Kind.ts"
import { ValueTypeJson } from "./ValueJson.ts"
import { wireShape } from "./WireShape.ts"

/**
 * An extension kind's fields, the same in both vocabularies (docs/reference.md §3): `{"vendor", "adapter", "kind",
 * "type"}`, `type` naming the value type its channels carry. A writes them under `{"Extension": …}`, B bare.
 */
export type ExtensionKind = Extract<Kind, { readonly _tag: "Extension" }>

export const ExtensionKindJson = wireShape({
  wire: Schema.Struct({
    vendor: Schema.String,
    adapter: Schema.String,
    kind: Schema.String,
    type: ValueTypeJson
  }).annotate({
    identifier: "ExtensionKind",
    expected: "an extension kind",
    description: "A kind defined by an adapter, with the value type it carries."
  }),
  read: (e): ExtensionKind => ({ _tag: "Extension", vendor: e.vendor, adapter: e.adapter, kind: e.kind, type: e.type }),
  write: (k) => ({ vendor: k.vendor, adapter: k.adapter, kind: k.kind, type: k.type })
}, Kind.cases.Extension)
