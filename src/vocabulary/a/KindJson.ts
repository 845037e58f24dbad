import * as Schema from "effect/Schema"
import { type BuiltinKindName, builtinKindNames, isBuiltinKindName, Kind } from "../../domain/Kind.ts"
import { DOCS } from "../common/Docs.ts"
import { ExtensionKindJson } from "../common/ExtensionKindJson.ts"
import { type Wire, wireShape } from "../common/WireShape.ts"
import { explainedBy, explainKeyed } from "../common/WireSchema.ts"
import { EmptyArrayJson } from "./EmptyMarker.ts"

/**
 * A channel kind in vocabulary A (docs/reference.md §3): a built-in kind is an object holding an empty array,
 * `{"OnOff": []}`; an extension is `{"Extension": {"vendor", "adapter", "kind", "type"}}`.
 */
const builtins = new Map(builtinKindNames.map((name) => [name, Schema.Struct({ [name]: EmptyArrayJson })] as const))

const Extension = Schema.Struct({ Extension: ExtensionKindJson.wire })

const kindExample = `a kind such as {"OnOff": []}`

type KindWire = { readonly [name: string]: readonly [] } | { readonly Extension: typeof ExtensionKindJson.wire.Type }

const isExtension = (json: KindWire): json is { readonly Extension: typeof ExtensionKindJson.wire.Type } => Object.hasOwn(json, "Extension")

export const KindJson = wireShape({
  wire: Schema.Union([...builtins.values(), Extension]).annotate({
    identifier: "AKind",
    description: DOCS ? "A channel kind in vocabulary A: `{\"OnOff\": []}`, or `{\"Extension\": {…}}`." : "",
    ...explainedBy(explainKeyed(
      kindExample,
      (name) => (name === "Extension" ? Extension : isBuiltinKindName(name) ? builtins.get(name) : undefined),
      (name) => `unknown kind ${JSON.stringify(name)}`
    ))
  }) as Wire<KindWire>,
  // The union took an object whose one key is a built-in kind's name, or "Extension".
  read: (json): Kind =>
    isExtension(json) ? ExtensionKindJson.read(json.Extension) : { _tag: "Builtin", name: Object.keys(json)[0] as BuiltinKindName },
  write: (kind): KindWire => (kind._tag === "Builtin" ? { [kind.name]: [] } : { Extension: ExtensionKindJson.write(kind) })
}, Kind)
