import { Result } from "effect"
import { builtinKindNames, isBuiltinKindName, type Kind } from "../../domain/Kind.ts"
import { decodeExtensionKind, encodeExtensionKind } from "./ExtensionKindJson.ts"
import type { InputPath } from "./InvalidInput.ts"
import { type Decoded, describeJson, invalid, isJsonObject } from "./JsonInput.ts"

/**
 * A kind as a bare name (`"OnOff"`), or an Extension as `{"vendor": s, "adapter": s, "kind": s, "type":
 * <value type name>}` (wire.md §3): how vocabulary B writes kinds, and how the simulator's home file does.
 */
const knownKinds = `${builtinKindNames.join(", ")}, or an extension {"vendor", "adapter", "kind", "type"}`

export const decodeKindName = (json: unknown, path: InputPath = []): Decoded<Kind> => {
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
    return decodeExtensionKind(json, path)
  }
  return invalid(path, `expected a kind such as "OnOff", got ${describeJson(json)}`)
}

export const encodeKindName = (kind: Kind): unknown => kind._tag === "Builtin" ? kind.name : encodeExtensionKind(kind)
