import { Result } from "effect"
import { builtinKind, isBuiltinKindName, type Kind } from "../../domain/Kind.ts"
import { decodeExtensionKind, encodeExtensionKind } from "../common/ExtensionKindJson.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import { type Decoded, invalid, readSingleKey } from "../common/JsonInput.ts"
import { readEmptyArray } from "./EmptyMarker.ts"

/**
 * A channel kind in vocabulary A (wire.md §3): a built-in kind is an object holding an empty array,
 * `{"OnOff": []}`; an extension is `{"Extension": {"vendor", "adapter", "kind", "type"}}`.
 */
export const decodeKind = (json: unknown, path: InputPath = []): Decoded<Kind> =>
  Result.flatMap(readSingleKey(json, path, "a kind such as {\"OnOff\": []}"), ([name, payload]) => {
    if (name === "Extension") return decodeExtensionKind(payload, [...path, name])
    if (!isBuiltinKindName(name)) return invalid(path, `unknown kind ${JSON.stringify(name)}`)
    return Result.map(readEmptyArray(payload, [...path, name]), () => builtinKind(name))
  })

export const encodeKind = (kind: Kind): unknown =>
  kind._tag === "Builtin" ? { [kind.name]: [] } : { Extension: encodeExtensionKind(kind) }
