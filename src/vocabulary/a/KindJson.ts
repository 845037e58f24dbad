import { Result } from "effect"
import { builtinKind, isBuiltinKindName, type Kind } from "../../domain/Kind.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  invalid,
  readObjectWithKeys,
  readSingleKey,
  readString,
  requiredField
} from "../common/JsonInput.ts"
import { decodeValueType } from "../common/ValueJson.ts"
import { readEmptyArray } from "./EmptyMarker.ts"

const extensionFields = ["vendor", "adapter", "kind", "type"] as const

const decodeExtension = (json: unknown, path: InputPath): Decoded<Kind> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "an extension kind", extensionFields)
    const text = (key: "vendor" | "adapter" | "kind") =>
      Result.flatMap(requiredField(object, key, path), (value) => readString(value, [...path, key]))
    const vendor = yield* text("vendor")
    const adapter = yield* text("adapter")
    const kind = yield* text("kind")
    const type = yield* Result.flatMap(requiredField(object, "type", path), (v) => decodeValueType(v, [...path, "type"]))
    return { _tag: "Extension", vendor, adapter, kind, type } as const
  })

/**
 * A channel kind in vocabulary A (wire.md §3): a built-in kind is an object holding an empty array,
 * `{"OnOff": []}`; an extension is `{"Extension": {"vendor", "adapter", "kind", "type"}}`.
 */
export const decodeKind = (json: unknown, path: InputPath = []): Decoded<Kind> =>
  Result.flatMap(readSingleKey(json, path, "a kind such as {\"OnOff\": []}"), ([name, payload]) => {
    if (name === "Extension") return decodeExtension(payload, [...path, name])
    if (!isBuiltinKindName(name)) return invalid(path, `unknown kind ${JSON.stringify(name)}`)
    return Result.map(readEmptyArray(payload, [...path, name]), () => builtinKind(name))
  })

export const encodeKind = (kind: Kind): unknown =>
  kind._tag === "Builtin"
    ? { [kind.name]: [] }
    : { Extension: { vendor: kind.vendor, adapter: kind.adapter, kind: kind.kind, type: kind.type } }
