import { Schema, SchemaTransformation } from "effect"
import { type BuiltinKindName, builtinKindNames, isBuiltinKindName, Kind } from "../../domain/Kind.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { ExtensionKindJson } from "../common/ExtensionKindJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import { EmptyArrayJson } from "./EmptyMarker.ts"

/**
 * A channel kind in vocabulary A (wire.md §3): a built-in kind is an object holding an empty array,
 * `{"OnOff": []}`; an extension is `{"Extension": {"vendor", "adapter", "kind", "type"}}`.
 */
const builtin = (name: BuiltinKindName) =>
  Schema.Struct({ [name]: EmptyArrayJson }).pipe(Schema.decodeTo(
    // This name only: a union writes a value with the first member that takes it.
    Schema.TaggedStruct("Builtin", { name: Schema.Literal(name) }),
    SchemaTransformation.transform({
      decode: () => ({ _tag: "Builtin", name }) as const,
      encode: (): { readonly [key: string]: readonly [] } => ({ [name]: [] })
    })
  ))

const builtins = new Map(builtinKindNames.map((name) => [name, builtin(name)] as const))

const Extension = Schema.Struct({ Extension: ExtensionKindJson }).pipe(Schema.decodeTo(
  Kind.cases.Extension,
  SchemaTransformation.transform({ decode: ({ Extension: kind }) => kind, encode: (kind) => ({ Extension: kind }) })
))

const kindExample = `a kind such as {"OnOff": []}`

export const KindJson = Schema.Union([...builtins.values(), Extension]).annotate({
  identifier: "AKind",
  description: "A channel kind in vocabulary A: `{\"OnOff\": []}`, or `{\"Extension\": {…}}`.",
  ...explainedBy((input) => {
    if (!isJsonObject(input)) return expectedGot(kindExample, input)
    const keys = Object.keys(input)
    const [name] = keys
    if (name === undefined || keys.length > 1) return `expected ${kindExample}, got an object with ${keys.length} keys`
    if (name === "Extension") return Extension
    return (isBuiltinKindName(name) ? builtins.get(name) : undefined) ?? `unknown kind ${JSON.stringify(name)}`
  })
})

export const decodeKind = decodeWith(KindJson)
export const encodeKind = encodeTotal(KindJson)
