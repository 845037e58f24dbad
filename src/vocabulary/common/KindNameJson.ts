import * as Schema from "effect/Schema"
import { builtinKindNames, builtinKindTypes, isBuiltinKindName, Kind } from "../../domain/Kind.ts"
import { isJsonObject } from "./DescribeJson.ts"
import { DOCS } from "./Docs.ts"
import { ExtensionKindJson } from "./ExtensionKindJson.ts"
import { wireShape } from "./WireShape.ts"
import { expectedGot, explainedBy } from "./WireSchema.ts"

/**
 * A kind as vocabulary B and the simulator's home file write it (docs/reference.md §3): a bare name (`"OnOff"`),
 * or an Extension as `{"vendor": s, "adapter": s, "kind": s, "type": <value type name>}`.
 */
const knownKinds = `${builtinKindNames.join(", ")}, or an extension {"vendor", "adapter", "kind", "type"}`

const kindTable = DOCS ? builtinKindNames.map((name) => `${name}: ${builtinKindTypes[name]}`).join(", ") : ""

type BuiltinKind = Extract<Kind, { readonly _tag: "Builtin" }>

// One value per built-in kind, shared by every channel read with it: a large home holds each once.
const builtinKinds = new Map(builtinKindNames.map((name): [string, BuiltinKind] => [name, { _tag: "Builtin", name }]))

/** A built-in kind's name. */
export const KindNameJson = wireShape({
  wire: Schema.Literals(builtinKindNames).annotate({
    identifier: "KindName",
    description: DOCS ? `A built-in channel kind and, after the colon, the value type it carries: ${kindTable}.` : "",
    ...explainedBy((input) =>
      typeof input === "string" ? `unknown kind ${JSON.stringify(input)} (known: ${knownKinds})` : expectedGot(`a kind such as "OnOff"`, input)
    )
  }),
  read: (name): BuiltinKind => builtinKinds.get(name) ?? { _tag: "Builtin", name },
  write: (kind) => kind.name
}, Kind.cases.Builtin)

/** A kind: a built-in kind's bare name, or an extension object. */
export const BareKindJson = wireShape({
  wire: Schema.Union([KindNameJson.wire, ExtensionKindJson.wire]).annotate({
    identifier: "BKind",
    description: DOCS ? "A channel kind in vocabulary B: a bare name (`\"OnOff\"`) or an extension object." : "",
    ...explainedBy((input) => {
      if (typeof input === "string") return KindNameJson.wire
      if (!isJsonObject(input)) return expectedGot(`a kind such as "OnOff"`, input)
      const keys = Object.keys(input)
      const [only] = keys
      // `{"OnOff": []}` and `{"Extension": {…}}` are vocabulary A's forms: say so rather than "unknown field".
      return keys.length === 1 && only !== undefined && (isBuiltinKindName(only) || only === "Extension")
        ? `expected a kind such as "OnOff" or {"vendor", "adapter", "kind", "type"}, got vocabulary A's form`
        : ExtensionKindJson.wire
    })
  }),
  read: (json): Kind => (typeof json === "string" ? KindNameJson.read(json) : ExtensionKindJson.read(json)),
  write: (kind) => (kind._tag === "Builtin" ? KindNameJson.write(kind) : ExtensionKindJson.write(kind))
}, Kind)
