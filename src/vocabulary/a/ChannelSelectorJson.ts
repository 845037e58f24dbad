import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type Constraint, empty, exactly, same, sameConstraint } from "../../domain/Constraint.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import { ChannelSelector } from "../../domain/Selector.ts"
import { DOCS } from "../common/Docs.ts"
import { ChannelIdJson, NodeIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { isChannelIdText, onlyField } from "../common/SelectorsById.ts"
import { fieldsOf, noItems, wireRecord } from "../common/WireRecord.ts"
import { type PartialWireShape, partialWireShape, plain, writeEach } from "../common/WireShape.ts"
import { ConstraintJson, unconstrained } from "./ConstraintJson.ts"
import { KindJson } from "./KindJson.ts"

/**
 * GetSelector and SetSelector (docs/reference.md §4): `id`, `parent` (the owning node), `tags`, `kind`, all optional.
 * A has no mechanism field: the place a selector stands in says it. A GetSelector selects getters, a
 * SetSelector setters, and a selector in a channel tag body (`/api/v1/channels/tag`) channels of either.
 */
interface Role {
  readonly what: string
  readonly mechanism: Constraint<Mechanism>
  readonly identifier: string
  readonly description: string
}

const asGetSelector: Role = { what: "a GetSelector", mechanism: exactly("getter"), identifier: "AGetSelector", description: DOCS ? "Selects inputs." : "" }
const asSetSelector: Role = { what: "a SetSelector", mechanism: exactly("setter"), identifier: "ASetSelector", description: DOCS ? "Selects outputs." : "" }
const asEitherSelector: Role = {
  what: "a GetSelector or SetSelector",
  mechanism: empty,
  identifier: "AChannelTagSelector",
  description: DOCS ? "A GetSelector or SetSelector (they have one shape): selects channels of either mechanism." : ""
}

const describeMechanism = (mechanism: Constraint<Mechanism>): string => {
  switch (mechanism._tag) {
    case "Exactly":
      return `${mechanism.value}s only`
    case "Empty":
      return "channels of either mechanism"
    case "Conflict":
      return "nothing (a Conflict)"
  }
}

/** Why A cannot write `selector` in `role`, if it cannot: service tags, or another mechanism than the role's. */
const unexpressible = (selector: ChannelSelector, role: Role): string | undefined =>
  selector.serviceTags.length > 0
    ? "vocabulary A has no service_tags: it cannot select channels by their node's tags"
    : sameConstraint(selector.mechanism, role.mechanism, same)
    ? undefined
    : `in vocabulary A, ${role.what} selects ${describeMechanism(role.mechanism)}, this selector ${describeMechanism(selector.mechanism)}`

const idConstraint = ConstraintJson(plain(ChannelIdJson))
const nodeConstraint = ConstraintJson(plain(NodeIdJson))
const kindConstraint = ConstraintJson(KindJson)

const selector = fieldsOf(ChannelSelector)

/** The selector in `role`, if A can write it: an unconstrained field is left out, `{}` is the selector of everything. */
const selectorJson = (role: Role) => {
  const record = wireRecord(ChannelSelector, {
    id: selector.optional("id", idConstraint, unconstrained, DOCS ? "The channel with this id." : ""),
    parent: selector.optional("service", nodeConstraint, unconstrained, DOCS ? "Channels of this node." : ""),
    tags: selector.optional("tags", TagsJson, noItems, DOCS ? "Channels that carry all of these tags." : ""),
    kind: selector.optional("kind", kindConstraint, unconstrained, DOCS ? "Channels of this kind, e.g. `{\"Exactly\": {\"OnOff\": []}}`." : "")
  }, {
    constants: { mechanism: role.mechanism, serviceTags: [] },
    annotations: { expected: role.what, identifier: role.identifier, description: DOCS ? `${role.description} Every given field must hold; \`{}\` matches everything.` : "" }
  })
  return partialWireShape({
    ...record,
    write: (selector: ChannelSelector) => {
      const reason = unexpressible(selector, role)
      return reason === undefined ? Result.succeed(record.write(selector)) : Result.fail(reason)
    }
  }, ChannelSelector)
}

type SelectorWire = ReturnType<typeof selectorJson>["wire"]["Type"]

export const GetSelectorJson = selectorJson(asGetSelector)
export const SetSelectorJson = selectorJson(asSetSelector)
/** A selector of a channel tag body: it matches channels of either mechanism (docs/reference.md §6.3). */
export const ChannelTagSelectorJson = selectorJson(asEitherSelector)

/** `{"id": {"Exactly": "<id>"}}`: a selector of one channel, valid in every role. */
const isById = (json: unknown): boolean => isChannelIdText(onlyField(onlyField(json, "id"), "Exactly"))

const surelyById = (json: unknown): json is ReadonlyArray<SelectorWire> => Array.isArray(json) && json.every(isById)

const selectors = (selector: PartialWireShape<ChannelSelector, SelectorWire>, expected: string) =>
  partialWireShape({
    wire: Schema.Array(selector.wire).annotate({ expected }),
    read: (json) => json.map(selector.read),
    write: (all: ReadonlyArray<ChannelSelector>) => writeEach(all, selector.write),
    surely: surelyById
  }, Schema.Array(ChannelSelector))

export const GetSelectorsJson = selectors(GetSelectorJson, "an array of GetSelector")
export const SetSelectorsJson = selectors(SetSelectorJson, "an array of SetSelector")
export const ChannelTagSelectorsJson = selectors(ChannelTagSelectorJson, "an array of GetSelector or SetSelector")
