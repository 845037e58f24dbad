import { Result } from "effect"
import { type Constraint, empty, exactly } from "../../domain/Constraint.ts"
import type { Tag } from "../../domain/Identifier.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import type { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { forMechanism, selectsNothing } from "../../domain/SelectorAlgebra.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  describeJson,
  field,
  invalid,
  isJsonObject,
  type JsonObject,
  readChannelId,
  readEach,
  readObjectWithKeys,
  readServiceId,
  readTags
} from "../common/JsonInput.ts"
import { Unexpressible } from "../common/Unexpressible.ts"
import { decodeKind, encodeKind } from "./KindJson.ts"

/**
 * Selectors of vocabulary B (wire.md §4). A GetterSelector or SetterSelector is the canonical
 * ChannelSelector with its mechanism pinned; the selector of `/channels/tag` leaves the mechanism free.
 * Absent fields (and, as FoxBox clients send them, `null` ones) constrain nothing.
 */

/** Which B channel selector: GetterSelector, SetterSelector, or the either-mechanism one of `/channels/tag`. */
export type ChannelSelectorRole = Mechanism | "either"

const roleNames: Record<ChannelSelectorRole, string> = {
  getter: "a GetterSelector",
  setter: "a SetterSelector",
  either: "a channel selector"
}

const channelSelectorFields = ["id", "service", "tags", "service_tags", "kind"]
const serviceSelectorFields = ["id", "tags", "getters", "setters"]

/** A scalar field set to `null` reads as absent (clients serialise a missing optional so); a list must be an array. */
const isAbsent = (json: unknown): boolean => json === undefined || json === null

const optionalConstraint = <A>(
  object: JsonObject,
  key: string,
  path: InputPath,
  decode: (json: unknown, path: InputPath) => Decoded<A>
): Decoded<Constraint<A>> => {
  const json = field(object, key)
  return isAbsent(json) ? Result.succeed(empty) : Result.map(decode(json, [...path, key]), exactly)
}

const optionalTags = (object: JsonObject, key: string, path: InputPath): Decoded<ReadonlyArray<Tag>> => {
  const json = field(object, key)
  return json === undefined ? Result.succeed([]) : readTags(json, [...path, key])
}

const channelSelectorDecoder = (role: ChannelSelectorRole) => (json: unknown, path: InputPath = []): Decoded<ChannelSelector> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, roleNames[role], channelSelectorFields)
    return {
      id: yield* optionalConstraint(object, "id", path, readChannelId),
      service: yield* optionalConstraint(object, "service", path, readServiceId),
      mechanism: role === "either" ? empty : exactly(role),
      kind: yield* optionalConstraint(object, "kind", path, decodeKind),
      tags: yield* optionalTags(object, "tags", path),
      serviceTags: yield* optionalTags(object, "service_tags", path)
    }
  })

export const decodeGetterSelector = channelSelectorDecoder("getter")
export const decodeSetterSelector = channelSelectorDecoder("setter")
/** The selector of the shared `/channels/tag` path: it matches channels of either mechanism. */
export const decodeEitherChannelSelector = channelSelectorDecoder("either")

/** A nested list (a ServiceSelector's `getters`/`setters`) must be an array (wire.md §9). */
const nestedSelectors = (
  object: JsonObject,
  key: string,
  path: InputPath,
  what: string,
  decode: (json: unknown, path: InputPath) => Decoded<ChannelSelector>
): Decoded<ReadonlyArray<ChannelSelector>> => {
  const json = field(object, key)
  if (json === undefined) return Result.succeed([])
  if (!Array.isArray(json)) {
    const hint = isJsonObject(json) ? " (a single selector in place of an array is accepted only at the top level)" : ""
    return invalid([...path, key], `expected an array of ${what}, got ${describeJson(json)}${hint}`)
  }
  return readEach(json, [...path, key], decode)
}

export const decodeServiceSelector = (json: unknown, path: InputPath = []): Decoded<ServiceSelector> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a ServiceSelector", serviceSelectorFields)
    return {
      id: yield* optionalConstraint(object, "id", path, readServiceId),
      tags: yield* optionalTags(object, "tags", path),
      getters: yield* nestedSelectors(object, "getters", path, "GetterSelectors", decodeGetterSelector),
      setters: yield* nestedSelectors(object, "setters", path, "SetterSelectors", decodeSetterSelector)
    }
  })

/**
 * Where B takes selectors at the top level, one selector object stands for an array of one (wire.md §4).
 * `[]` is an empty list: it matches nothing.
 */
const oneOrMany = <A>(what: string, decode: (json: unknown, path: InputPath) => Decoded<A>) =>
(json: unknown, path: InputPath = []): Decoded<ReadonlyArray<A>> => {
  if (Array.isArray(json)) return readEach(json, path, decode)
  if (isJsonObject(json)) return Result.map(decode(json, path), (selector) => [selector])
  return invalid(path, `expected ${what} or an array of them, got ${describeJson(json)}`)
}

export const decodeGetterSelectors = oneOrMany("a GetterSelector", decodeGetterSelector)
export const decodeSetterSelectors = oneOrMany("a SetterSelector", decodeSetterSelector)
export const decodeEitherChannelSelectors = oneOrMany("a channel selector", decodeEitherChannelSelector)
export const decodeServiceSelectors = oneOrMany("a ServiceSelector", decodeServiceSelector)

// ---- encoding -------------------------------------------------------------------------------------
//
// B has no word for `Conflict` nor, in a getter or setter selector, for the other mechanism: such a
// selector matches nothing. In a list (an OR) it can be left out without changing what the list
// matches, so the list encoders are total. A single selector that matches nothing, and an either-mechanism
// selector that pins a mechanism, are refused with a reason.

/** Whether the selector, read as a selector of `role`, can match no channel at all. */
const channelSelectorMatchesNothing = (selector: ChannelSelector, role: ChannelSelectorRole): boolean =>
  selectsNothing(role === "either" ? selector : forMechanism(selector, role))

const serviceSelectorMatchesNothing = (selector: ServiceSelector): boolean =>
  selector.id._tag === "Conflict" ||
  selector.getters.some((g) => channelSelectorMatchesNothing(g, "getter")) ||
  selector.setters.some((s) => channelSelectorMatchesNothing(s, "setter"))

const writeConstraint = <A>(out: Record<string, unknown>, key: string, c: Constraint<A>, write: (a: A) => unknown) => {
  if (c._tag === "Exactly") out[key] = write(c.value)
}

const writeTags = (out: Record<string, unknown>, key: string, tags: ReadonlyArray<Tag>) => {
  if (tags.length > 0) out[key] = tags
}

/** The shortest B form: unconstrained fields are left out, so `{}` is the selector of everything. */
const writeChannelSelector = (selector: ChannelSelector): unknown => {
  const out: Record<string, unknown> = {}
  writeConstraint(out, "id", selector.id, (id) => id)
  writeConstraint(out, "service", selector.service, (id) => id)
  writeTags(out, "tags", selector.tags)
  writeTags(out, "service_tags", selector.serviceTags)
  writeConstraint(out, "kind", selector.kind, encodeKind)
  return out
}

const writeServiceSelector = (selector: ServiceSelector): unknown => {
  const out: Record<string, unknown> = {}
  writeConstraint(out, "id", selector.id, (id) => id)
  writeTags(out, "tags", selector.tags)
  if (selector.getters.length > 0) out["getters"] = selector.getters.map(writeChannelSelector)
  if (selector.setters.length > 0) out["setters"] = selector.setters.map(writeChannelSelector)
  return out
}

const matchesNothing = (what: string) =>
  new Unexpressible({
    reason: `this ${what} matches nothing (a Conflict, or the other mechanism); vocabulary B cannot write it`
  })

const channelSelectorEncoder = (role: Mechanism) => (selector: ChannelSelector): Result.Result<unknown, Unexpressible> =>
  channelSelectorMatchesNothing(selector, role)
    ? Result.fail(matchesNothing(role === "getter" ? "GetterSelector" : "SetterSelector"))
    : Result.succeed(writeChannelSelector(selector))

/** A getter selector; its mechanism may be `Exactly("getter")` or `Empty` (a getter context adds it). */
export const encodeGetterSelector = channelSelectorEncoder("getter")
export const encodeSetterSelector = channelSelectorEncoder("setter")

const channelSelectorsEncoder = (role: Mechanism) => (selectors: ReadonlyArray<ChannelSelector>): unknown =>
  selectors.filter((s) => !channelSelectorMatchesNothing(s, role)).map(writeChannelSelector)

/** Always an array; selectors that match nothing are left out, which keeps what the list matches. */
export const encodeGetterSelectors = channelSelectorsEncoder("getter")
export const encodeSetterSelectors = channelSelectorsEncoder("setter")

/**
 * Selectors of the shared `/channels/tag` path. They cannot pin a mechanism: a list that does is
 * refused (write it with the getter or setter alias instead).
 */
export const encodeEitherChannelSelectors = (
  selectors: ReadonlyArray<ChannelSelector>
): Result.Result<unknown, Unexpressible> => {
  const kept = selectors.filter((s) => !channelSelectorMatchesNothing(s, "either"))
  return kept.some((s) => s.mechanism._tag === "Exactly")
    ? Result.fail(
      new Unexpressible({
        reason: "a selector of /channels/tag cannot restrict the mechanism; use /channels/getter/tags or /channels/setter/tags"
      })
    )
    : Result.succeed(kept.map(writeChannelSelector))
}

export const encodeServiceSelector = (selector: ServiceSelector): Result.Result<unknown, Unexpressible> =>
  serviceSelectorMatchesNothing(selector)
    ? Result.fail(matchesNothing("ServiceSelector"))
    : Result.succeed(writeServiceSelector(selector))

/** Always an array; selectors that match nothing are left out. */
export const encodeServiceSelectors = (selectors: ReadonlyArray<ServiceSelector>): unknown =>
  selectors.filter((s) => !serviceSelectorMatchesNothing(s)).map(writeServiceSelector)
