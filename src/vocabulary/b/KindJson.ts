import { Result } from "effect"
import { builtinKindNames, isBuiltinKindName, type Kind } from "../../domain/Kind.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  describeJson,
  invalid,
  isJsonObject,
  readObjectWithKeys,
  readString,
  requiredField
} from "../common/JsonInput.ts"
import { decodeValueType } from "../common/ValueJson.ts"

/**
 * Kinds in vocabulary B (wire.md §3): a bare name (`"OnOff"`), or an Extension as
 * `{"vendor": s, "adapter": s, "kind": s, "type": <value type name>}`.
 */
const knownKinds = `${builtinKindNames.join(", ")}, or an extension {"vendor", "adapter", "kind", "type"}`

const extensionKeys = ["vendor", "adapter", "kind", "type"]

const decodeExtension = (json: unknown, path: InputPath): Decoded<Kind> =>
  Result.gen(function*() {
    const ext = yield* readObjectWithKeys(json, path, "an extension kind", extensionKeys)
    const vendor = yield* readString(yield* requiredField(ext, "vendor", path), [...path, "vendor"])
    const adapter = yield* readString(yield* requiredField(ext, "adapter", path), [...path, "adapter"])
    const kind = yield* readString(yield* requiredField(ext, "kind", path), [...path, "kind"])
    const type = yield* decodeValueType(yield* requiredField(ext, "type", path), [...path, "type"])
    return { _tag: "Extension", vendor, adapter, kind, type } as const
  })

export const decodeKind = (json: unknown, path: InputPath = []): Decoded<Kind> => {
  if (typeof json === "string") {
    return isBuiltinKindName(json)
      ? Result.succeed({ _tag: "Builtin", name: json })
      : invalid(path, `unknown kind ${JSON.stringify(json)} (known: ${knownKinds})`)
  }
  if (isJsonObject(json)) {
    const keys = Object.keys(json)
    const [only] = keys
    // `{"OnOff": []}` and `{"Extension": {…}}` are vocabulary A's forms: say so rather than "unknown field".
    if (keys.length === 1 && only !== undefined && (isBuiltinKindName(only) || only === "Extension")) {
      return invalid(path, `expected a kind such as "OnOff" or {"vendor", "adapter", "kind", "type"}, got vocabulary A's form`)
    }
    return decodeExtension(json, path)
  }
  return invalid(path, `expected a kind such as "OnOff", got ${describeJson(json)}`)
}

export const encodeKind = (kind: Kind): unknown =>
  kind._tag === "Builtin"
    ? kind.name
    : { vendor: kind.vendor, adapter: kind.adapter, kind: kind.kind, type: kind.type }
