import { Result } from "effect"
import type { Kind } from "../../domain/Kind.ts"
import type { InputPath } from "./InvalidInput.ts"
import { type Decoded, readObjectWithKeys, readRequired } from "./JsonInput.ts"
import { decodeValueType, readVendorFields } from "./ValueJson.ts"

/**
 * An extension kind's fields, the same in both vocabularies (wire.md §3): `{"vendor", "adapter", "kind",
 * "type"}`, `type` naming the value type its channels carry. A writes them under `{"Extension": …}`, B bare.
 */
export type ExtensionKind = Extract<Kind, { readonly _tag: "Extension" }>

const extensionFields = ["vendor", "adapter", "kind", "type"]

export const decodeExtensionKind = (json: unknown, path: InputPath): Decoded<ExtensionKind> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "an extension kind", extensionFields)
    const { vendor, adapter, kind } = yield* readVendorFields(object, path)
    const type = yield* readRequired(object, "type", path, decodeValueType)
    return { _tag: "Extension", vendor, adapter, kind, type } as const
  })

export const encodeExtensionKind = (kind: ExtensionKind): unknown => ({
  vendor: kind.vendor,
  adapter: kind.adapter,
  kind: kind.kind,
  type: kind.type
})
