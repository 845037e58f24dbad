import * as Schema from "effect/Schema"
import { Kind } from "../../domain/Kind.ts"
import { DOCS } from "./Docs.ts"
import { ValueTypeJson } from "./ValueJson.ts"
import { fieldsOf, wireRecord } from "./WireRecord.ts"

/**
 * An extension kind's fields, the same in both vocabularies (docs/reference.md §3): `{"vendor", "adapter", "kind",
 * "type"}`, `type` naming the value type its channels carry. A writes them under `{"Extension": …}`, B bare.
 */
export type ExtensionKind = Extract<Kind, { readonly _tag: "Extension" }>

const extension = fieldsOf(Kind.cases.Extension)

export const ExtensionKindJson = wireRecord(Kind.cases.Extension, {
  vendor: extension.field("vendor", Schema.String),
  adapter: extension.field("adapter", Schema.String),
  kind: extension.field("kind", Schema.String),
  type: extension.field("type", ValueTypeJson)
}, {
  constants: { _tag: "Extension" },
  annotations: { identifier: "ExtensionKind", expected: "an extension kind", description: DOCS ? "A kind defined by an adapter, with the value type it carries." : "" }
})
