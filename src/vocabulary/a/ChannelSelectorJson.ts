import { Result } from "effect"
import { type Constraint, empty, exactly, same, sameConstraint } from "../../domain/Constraint.ts"
import { normalizeTags } from "../../domain/Identifier.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import type { ChannelSelector } from "../../domain/Selector.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  field,
  readArrayOf,
  readChannelId,
  readNodeId,
  readObjectWithKeys,
  readTags
} from "../common/JsonInput.ts"
import { decodeConstraint, encodeConstraint } from "./ConstraintJson.ts"
import { Unexpressible } from "../common/Unexpressible.ts"
import { decodeKind, encodeKind } from "./KindJson.ts"

/**
 * GetSelector and SetSelector (wire.md §4): `id`, `parent` (the owning node), `tags`, `kind`, all optional.
 * A has no mechanism field: the place a selector stands in says it. A GetSelector selects getters, a
 * SetSelector setters, and a selector in a channel tag body (`/api/v1/channels/tag`) channels of either.
 */
interface Role {
  readonly what: string
  readonly mechanism: Constraint<Mechanism>
}

const asGetSelector: Role = { what: "a GetSelector", mechanism: exactly("getter") }
const asSetSelector: Role = { what: "a SetSelector", mechanism: exactly("setter") }
const asEitherSelector: Role = { what: "a GetSelector or SetSelector", mechanism: empty }

const selectorFields = ["id", "parent", "tags", "kind"]

/** An absent field is no constraint. */
const optional = <A>(json: unknown, decode: (json: unknown) => Decoded<A>, absent: A): Decoded<A> =>
  json === undefined ? Result.succeed(absent) : decode(json)

const decodeAs = (role: Role) => (json: unknown, path: InputPath): Decoded<ChannelSelector> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, role.what, selectorFields)
    const at = (key: string): InputPath => [...path, key]
    const id = yield* optional(field(object, "id"), (j) => decodeConstraint(j, at("id"), readChannelId), empty)
    const service = yield* optional(field(object, "parent"), (j) => decodeConstraint(j, at("parent"), readNodeId), empty)
    const tags = yield* optional(field(object, "tags"), (j) => readTags(j, at("tags")), [])
    const kind = yield* optional(field(object, "kind"), (j) => decodeConstraint(j, at("kind"), decodeKind), empty)
    return { id, service, mechanism: role.mechanism, kind, tags, serviceTags: [] }
  })

export const decodeGetSelector = decodeAs(asGetSelector)
export const decodeSetSelector = decodeAs(asSetSelector)
/** A selector of a channel tag body: it matches channels of either mechanism (wire.md §6). */
export const decodeChannelTagSelector = decodeAs(asEitherSelector)

export const decodeGetSelectors = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<ChannelSelector>> =>
  readArrayOf(json, path, "an array of GetSelector", decodeGetSelector)

export const decodeSetSelectors = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<ChannelSelector>> =>
  readArrayOf(json, path, "an array of SetSelector", decodeSetSelector)

export const decodeChannelTagSelectors = (
  json: unknown,
  path: InputPath = []
): Decoded<ReadonlyArray<ChannelSelector>> =>
  readArrayOf(json, path, "an array of GetSelector or SetSelector", decodeChannelTagSelector)

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

const encodeAs = (role: Role) => (selector: ChannelSelector): Result.Result<unknown, Unexpressible> => {
  if (selector.serviceTags.length > 0) {
    return Result.fail(new Unexpressible({ reason: "vocabulary A has no service_tags: it cannot select channels by their node's tags" }))
  }
  if (!sameConstraint(selector.mechanism, role.mechanism, same)) {
    return Result.fail(new Unexpressible({
      reason: `in vocabulary A, ${role.what} selects ${describeMechanism(role.mechanism)}, this selector ${
        describeMechanism(selector.mechanism)
      }`
    }))
  }
  const out: Record<string, unknown> = {}
  const id = encodeConstraint(selector.id, (id) => id)
  const parent = encodeConstraint(selector.service, (id) => id)
  const kind = encodeConstraint(selector.kind, encodeKind)
  if (id !== undefined) out.id = id
  if (parent !== undefined) out.parent = parent
  if (selector.tags.length > 0) out.tags = normalizeTags(selector.tags)
  if (kind !== undefined) out.kind = kind
  return Result.succeed(out)
}

/** Fails on what A cannot say: `serviceTags`, or a mechanism other than a GetSelector's (getters). */
export const encodeGetSelector = encodeAs(asGetSelector)
export const encodeSetSelector = encodeAs(asSetSelector)
/** For a channel tag body: the selector must leave the mechanism open, as A's tag bodies do. */
export const encodeChannelTagSelector = encodeAs(asEitherSelector)

const encodeAll = (encode: (s: ChannelSelector) => Result.Result<unknown, Unexpressible>) =>
(selectors: ReadonlyArray<ChannelSelector>): Result.Result<ReadonlyArray<unknown>, Unexpressible> =>
  Result.all(selectors.map(encode))

export const encodeGetSelectors = encodeAll(encodeGetSelector)
export const encodeSetSelectors = encodeAll(encodeSetSelector)
export const encodeChannelTagSelectors = encodeAll(encodeChannelTagSelector)
