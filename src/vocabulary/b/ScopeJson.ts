import { Result, Schema } from "effect"
import { Right, Scope } from "../../domain/Scope.ts"
import { decodeWith, encodeWith } from "../common/WireIssue.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import { partialWireShape } from "../common/WireShape.ts"
import { EitherChannelSelectorsJson } from "./SelectorJson.ts"

/**
 * A token's scope as an operator writes it (`gateway tokens create --scope`):
 * `{"channels": <channel selector(s) as for /channels/tag>, "rights": ["read", "write", "watch", "tag"]}`.
 * The selectors are vocabulary B's, mechanism free (`{"id": …}`, `{"tags": […]}`, `{"service": …}`…).
 */
const rightNames = Right.literals.map((r) => JSON.stringify(r)).join(", ")

const RightJson = Right.annotate(explainedBy((input) => expectedGot(`one of ${rightNames}`, input)))

export const ScopeJson = partialWireShape({
  wire: Schema.Struct({
    channels: EitherChannelSelectorsJson.wire,
    rights: Schema.Array(RightJson).annotate({ expected: "an array of rights" })
  }).annotate({ expected: "a scope" }),
  read: (json): Scope => ({ channels: EitherChannelSelectorsJson.read(json.channels), rights: [...new Set(json.rights)] }),
  write: (scope: Scope) => Result.map(EitherChannelSelectorsJson.write(scope.channels), (channels) => ({ channels, rights: scope.rights }))
}, Scope)

export const decodeScope = decodeWith(ScopeJson)
export const encodeScope = encodeWith(ScopeJson)
