import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { type Constraint, empty, exactly, same, sameConstraint } from "../../domain/Constraint.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import { ChannelSelector } from "../../domain/Selector.ts"
import { ChannelIdJson, NodeIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { decodeWith, encodeWith } from "../common/WireIssue.ts"
import { ConstraintJson } from "./ConstraintJson.ts"
import { KindJson } from "./KindJson.ts"

/**
 * GetSelector and SetSelector (wire.md §4): `id`, `parent` (the owning node), `tags`, `kind`, all optional.
 * A has no mechanism field: the place a selector stands in says it. A GetSelector selects getters, a
 * SetSelector setters, and a selector in a channel tag body (`/api/v1/channels/tag`) channels of either.
 */
interface Role {
  readonly what: string
  readonly mechanism: Constraint<Mechanism>
  readonly identifier: string
  readonly description: string
}

const asGetSelector: Role = { what: "a GetSelector", mechanism: exactly("getter"), identifier: "AGetSelector", description: "Selects inputs." }
const asSetSelector: Role = { what: "a SetSelector", mechanism: exactly("setter"), identifier: "ASetSelector", description: "Selects outputs." }
const asEitherSelector: Role = {
  what: "a GetSelector or SetSelector",
  mechanism: empty,
  identifier: "AChannelTagSelector",
  description: "A GetSelector or SetSelector (they have one shape): selects channels of either mechanism."
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

const selectorJson = (role: Role) =>
  Schema.Struct({
    id: Schema.optionalKey(ConstraintJson(ChannelIdJson)).annotateKey({ description: "The channel with this id." }),
    parent: Schema.optionalKey(ConstraintJson(NodeIdJson)).annotateKey({ description: "Channels of this node." }),
    tags: Schema.optionalKey(TagsJson).annotateKey({ description: "Channels that carry all of these tags." }),
    kind: Schema.optionalKey(ConstraintJson(KindJson)).annotateKey({ description: "Channels of this kind, e.g. `{\"Exactly\": {\"OnOff\": []}}`." })
  }).annotate({
    expected: role.what,
    identifier: role.identifier,
    description: `${role.description} Every given field must hold; \`{}\` matches everything.`
  }).pipe(Schema.decodeTo(
    Schema.toType(ChannelSelector),
    SchemaTransformation.transformEffect({
      decode: (json) =>
        Effect.succeed<ChannelSelector>({
          id: json.id ?? empty,
          service: json.parent ?? empty,
          mechanism: role.mechanism,
          kind: json.kind ?? empty,
          tags: json.tags ?? [],
          serviceTags: []
        }),
      // An unconstrained field is left out: `{}` is the selector of everything.
      encode: (selector) => {
        const reason = unexpressible(selector, role)
        if (reason !== undefined) return Effect.fail(new SchemaIssue.InvalidValue({ message: reason }, selector))
        return Effect.succeed({
          ...(selector.id._tag === "Empty" ? {} : { id: selector.id }),
          ...(selector.service._tag === "Empty" ? {} : { parent: selector.service }),
          ...(selector.tags.length === 0 ? {} : { tags: selector.tags }),
          ...(selector.kind._tag === "Empty" ? {} : { kind: selector.kind })
        })
      }
    })
  ))

export const GetSelectorJson = selectorJson(asGetSelector)
export const SetSelectorJson = selectorJson(asSetSelector)
/** A selector of a channel tag body: it matches channels of either mechanism (wire.md §6). */
export const ChannelTagSelectorJson = selectorJson(asEitherSelector)

export const GetSelectorsJson = Schema.Array(GetSelectorJson).annotate({ expected: "an array of GetSelector" })
export const SetSelectorsJson = Schema.Array(SetSelectorJson).annotate({ expected: "an array of SetSelector" })
export const ChannelTagSelectorsJson = Schema.Array(ChannelTagSelectorJson).annotate({
  expected: "an array of GetSelector or SetSelector"
})

export const decodeGetSelectors = decodeWith(GetSelectorsJson)
export const decodeSetSelectors = decodeWith(SetSelectorsJson)
export const decodeChannelTagSelectors = decodeWith(ChannelTagSelectorsJson)

/** Fail on what A cannot say: `serviceTags`, or a mechanism other than the selector's role. */
export const encodeGetSelector = encodeWith(GetSelectorJson)
export const encodeSetSelector = encodeWith(SetSelectorJson)
export const encodeChannelTagSelector = encodeWith(ChannelTagSelectorJson)
export const encodeGetSelectors = encodeWith(GetSelectorsJson)
export const encodeSetSelectors = encodeWith(SetSelectorsJson)
export const encodeChannelTagSelectors = encodeWith(ChannelTagSelectorsJson)
