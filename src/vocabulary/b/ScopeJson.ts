import { identity, Schema } from "effect"
import { Right, Scope } from "../../domain/Scope.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import { fieldsOf, partialWireRecord } from "../common/WireRecord.ts"
import type { WirePart } from "../common/WireShape.ts"
import { EitherChannelSelectorsJson } from "./SelectorJson.ts"

/**
 * A token's scope as an operator writes it (`gateway tokens create --scope`):
 * `{"channels": <channel selector(s) as for /channels/tag>, "rights": ["read", "write", "watch", "tag"]}`.
 * The selectors are vocabulary B's, mechanism free (`{"id": …}`, `{"tags": […]}`, `{"service": …}`…).
 */
const rightNames = Right.literals.map((r) => JSON.stringify(r)).join(", ")

const RightJson = Right.annotate(explainedBy((input) => expectedGot(`one of ${rightNames}`, input)))

/** Rights, read without repeats. */
const RightsJson: WirePart<Scope["rights"], Scope["rights"]> = {
  wire: Schema.Array(RightJson).annotate({ expected: "an array of rights" }),
  read: (rights) => [...new Set(rights)],
  write: identity
}

const scope = fieldsOf(Scope)

export const ScopeJson = partialWireRecord(Scope, {
  channels: scope.partial("channels", EitherChannelSelectorsJson),
  rights: scope.field("rights", RightsJson)
}, { annotations: { expected: "a scope" } })
