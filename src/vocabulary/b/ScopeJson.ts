import * as Schema from "effect/Schema"
import { identity } from "effect/Function"
import { Right, TokenScope } from "../../domain/Access.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import { fieldsOf, partialWireRecord } from "../common/WireRecord.ts"
import type { WirePart } from "../common/WireShape.ts"
import { EitherChannelSelectorsJson } from "./SelectorJson.ts"

/**
 * A token's scope as an operator writes it (`gateway tokens create --scope`):
 * `{"channels": <channel selector(s) as for /channels/tag>, "rights": ["read", "write", "watch", "tag", "metrics", "tokens"]}`.
 * The selectors are vocabulary B's, mechanism free (`{"id": …}`, `{"tags": […]}`, `{"service": …}`…).
 */
const rightNames = Right.literals.map((r) => JSON.stringify(r)).join(", ")

const RightJson = Right.annotate(explainedBy((input) => expectedGot(`one of ${rightNames}`, input)))

/** Rights, read without repeats. */
const RightsJson: WirePart<TokenScope["rights"], TokenScope["rights"]> = {
  wire: Schema.Array(RightJson).annotate({ expected: "an array of rights" }),
  read: (rights) => [...new Set(rights)],
  write: identity
}

const scope = fieldsOf(TokenScope)

export const ScopeJson = partialWireRecord(TokenScope, {
  channels: scope.partial("channels", EitherChannelSelectorsJson),
  rights: scope.field("rights", RightsJson)
}, { annotations: { expected: "a scope" } })
