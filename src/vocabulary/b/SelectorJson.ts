import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type Constraint, empty, exactly } from "../../domain/Constraint.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { forMechanism, selectsNothing } from "../../domain/SelectorAlgebra.ts"
import { describeJson, isJsonObject } from "../common/DescribeJson.ts"
import { DOCS } from "../common/Docs.ts"
import { ChannelIdJson, ServiceIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { BareKindJson } from "../common/KindNameJson.ts"
import { isChannelIdText, onlyField } from "../common/SelectorsById.ts"
import { explainedBy, nullable, oneOrMany } from "../common/WireSchema.ts"
import { type Absence, fieldsOf, noItems, wireRecord } from "../common/WireRecord.ts"
import { partialWireShape, plain, type WirePart, wireShape } from "../common/WireShape.ts"

/**
 * Selectors of vocabulary B (docs/reference.md §4). A GetterSelector or SetterSelector is the canonical
 * ChannelSelector with its mechanism pinned; the selector of `/channels/tag` leaves the mechanism free.
 * Absent fields (and, as FoxBox clients send them, `null` scalar ones) constrain nothing.
 *
 * B has no word for `Conflict` nor, in a getter or setter selector, for the other mechanism: such a
 * selector matches nothing. In a list (an OR) it can be left out without changing what the list
 * matches, so lists always write; a single selector that matches nothing, and an either-mechanism
 * selector that pins a mechanism, are refused with a reason.
 */

/** Which B channel selector: GetterSelector, SetterSelector, or the either-mechanism one of `/channels/tag`. */
export type ChannelSelectorRole = Mechanism | "either"

const roleNames: Record<ChannelSelectorRole, string> = {
  getter: "a GetterSelector",
  setter: "a SetterSelector",
  either: "a channel selector"
}

/** How the document names and describes each role's selector. */
const roleDocs: Record<ChannelSelectorRole, { readonly identifier: string; readonly description: string }> = {
  getter: { identifier: "BGetterSelector", description: DOCS ? "Selects getters." : "" },
  setter: { identifier: "BSetterSelector", description: DOCS ? "Selects setters." : "" },
  either: { identifier: "BChannelSelector", description: DOCS ? "Selects channels of either mechanism (`/api/v1/channels/tag`)." : "" }
}

const matchAll = DOCS ? " Every given field must hold; `{}` matches everything." : ""

/** Whether the selector, read as a selector of `role`, can match no channel at all. */
const matchesNothingAs = (role: ChannelSelectorRole) => (selector: ChannelSelector): boolean =>
  selectsNothing(role === "either" ? selector : forMechanism(selector, role))

const serviceSelectorMatchesNothing = (selector: ServiceSelector): boolean =>
  selector.id._tag === "Conflict" ||
  selector.getters.some(matchesNothingAs("getter")) ||
  selector.setters.some(matchesNothingAs("setter"))

const matchesNothing = (what: string) =>
  `this ${what} matches nothing (a Conflict, or the other mechanism); vocabulary B cannot write it`

/** A field that constrains by its value: `null` (and, as an optional field, absence) constrains nothing. */
const constrainedBy = <A, W>(value: WirePart<A, W>): WirePart<Constraint<A>, W | null> => ({
  wire: nullable(value.wire),
  read: (json) => (json === null ? empty : exactly(value.read(json))),
  write: (c) => (c._tag === "Exactly" ? value.write(c.value) : null)
})

/** An absent field constrains nothing; only `Exactly` is written (B has no word for `Conflict`). */
const unconstrained: Absence<Constraint<never>> = { absent: empty, leftOut: (c) => c._tag !== "Exactly" }

const channelField = fieldsOf(ChannelSelector)

/** A channel selector of `role`, written in the shortest B form whatever it matches (lists leave out what matches nothing). */
const channelSelectorPart = (role: ChannelSelectorRole) =>
  wireRecord(ChannelSelector, {
    id: channelField.optional("id", constrainedBy(plain(ChannelIdJson)), unconstrained, DOCS ? "The channel with this id." : ""),
    service: channelField.optional("service", constrainedBy(plain(ServiceIdJson)), unconstrained, DOCS ? "Channels of the service with this id." : ""),
    tags: channelField.optional("tags", TagsJson, noItems, DOCS ? "Channels that carry all of these tags." : ""),
    service_tags: channelField.optional("serviceTags", TagsJson, noItems, DOCS ? "Channels whose service carries all of these tags." : ""),
    kind: channelField.optional("kind", constrainedBy(BareKindJson), unconstrained, DOCS ? "Channels of this kind." : "")
  }, {
    constants: { mechanism: role === "either" ? empty : exactly(role) },
    annotations: { expected: roleNames[role], identifier: roleDocs[role].identifier, description: DOCS ? roleDocs[role].description + matchAll : "" }
  })

type ChannelSelectorWire = typeof getterSelector.wire.Type

const getterSelector = channelSelectorPart("getter")
const setterSelector = channelSelectorPart("setter")
const eitherChannelSelector = channelSelectorPart("either")

/** A single selector B can write only if it matches something (the either-mechanism one always can). */
const channelSelectorJson = (part: WirePart<ChannelSelector, ChannelSelectorWire>, role: ChannelSelectorRole) =>
  partialWireShape({
    ...part,
    write: (selector: ChannelSelector) =>
      role !== "either" && matchesNothingAs(role)(selector)
        ? Result.fail(matchesNothing(role === "getter" ? "GetterSelector" : "SetterSelector"))
        : Result.succeed(part.write(selector))
  }, ChannelSelector)

/** A getter selector; written from a mechanism of `Exactly("getter")` or `Empty` (a getter context adds it). */
export const GetterSelectorJson = channelSelectorJson(getterSelector, "getter")
export const SetterSelectorJson = channelSelectorJson(setterSelector, "setter")
/** The selector of the shared `/channels/tag` path: it matches channels of either mechanism. */
export const EitherChannelSelectorJson = channelSelectorJson(eitherChannelSelector, "either")

/** A nested list (a ServiceSelector's `getters`/`setters`) must be an array (docs/reference.md §4). */
const nestedSelectors = <T, W>(item: WirePart<T, W>, what: string): WirePart<ReadonlyArray<T>, ReadonlyArray<W>> => {
  const many = Schema.Array(item.wire)
  return {
    wire: many.annotate(explainedBy((input) =>
      Array.isArray(input)
        ? many
        : `expected an array of ${what}, got ${describeJson(input)}${
          isJsonObject(input) ? " (a single selector in place of an array is accepted only at the top level)" : ""
        }`
    )),
    read: (json) => json.map(item.read),
    write: (all) => all.map(item.write)
  }
}

const serviceField = fieldsOf(ServiceSelector)

const serviceSelector = wireRecord(ServiceSelector, {
  id: serviceField.optional("id", constrainedBy(plain(ServiceIdJson)), unconstrained, DOCS ? "The service with this id." : ""),
  tags: serviceField.optional("tags", TagsJson, noItems, DOCS ? "Services that carry all of these tags." : ""),
  getters: serviceField.optional(
    "getters",
    nestedSelectors(getterSelector, "GetterSelectors"),
    noItems,
    DOCS ? "For each, the service has at least one matching getter. An array, never a single selector." : ""
  ),
  setters: serviceField.optional(
    "setters",
    nestedSelectors(setterSelector, "SetterSelectors"),
    noItems,
    DOCS ? "For each, the service has at least one matching setter. An array, never a single selector." : ""
  )
}, { annotations: { expected: "a ServiceSelector", identifier: "BServiceSelector", description: DOCS ? "Selects services." + matchAll : "" } })

export const ServiceSelectorJson = partialWireShape({
  ...serviceSelector,
  write: (selector: ServiceSelector) =>
    serviceSelectorMatchesNothing(selector)
      ? Result.fail(matchesNothing("ServiceSelector"))
      : Result.succeed(serviceSelector.write(selector))
}, ServiceSelector)

/**
 * `sel(s)` where B takes selectors at the top level (docs/reference.md §4): one selector object stands for an array
 * of one; `[]` is an empty list, which matches nothing. Always written as an array, leaving out the
 * selectors that match nothing (which keeps what the list matches).
 */
const selectorList = <T, W>(item: WirePart<T, W>, what: string, identifier: string, keep: (selector: T) => boolean) => {
  const list = oneOrMany(item, what, {
    identifier,
    description: DOCS ? `${identifier.slice(1)}: one, or an array of them (a thing matches if it matches any; \`[]\` matches nothing).` : ""
  })
  return { ...list, write: (all: ReadonlyArray<T>) => list.write(all.filter(keep)) }
}

const expressibleAs = (role: ChannelSelectorRole) => (selector: ChannelSelector) => !matchesNothingAs(role)(selector)

/** Whether B can write the selector as a GetterSelector (it matches some getter). */
export const expressibleAsGetterSelector = expressibleAs("getter")

const Selectors = Schema.Array(ChannelSelector)

/** `{"id": "<id>"}`: a selector of one channel, as a getter's or a setter's. */
const isById = (json: unknown): boolean => isChannelIdText(onlyField(json, "id"))

/** One selector by id, or an array of them. */
const surelyById = (json: unknown): json is ChannelSelectorWire | ReadonlyArray<ChannelSelectorWire> =>
  Array.isArray(json) ? json.every(isById) : isById(json)

export const GetterSelectorsJson = wireShape(
  { ...selectorList(getterSelector, "a GetterSelector", "BGetterSelectors", expressibleAs("getter")), surely: surelyById },
  Selectors
)
export const SetterSelectorsJson = wireShape(
  { ...selectorList(setterSelector, "a SetterSelector", "BSetterSelectors", expressibleAs("setter")), surely: surelyById },
  Selectors
)
export const ServiceSelectorsJson = wireShape(
  selectorList(serviceSelector, "a ServiceSelector", "BServiceSelectors", (s) => !serviceSelectorMatchesNothing(s)),
  Schema.Array(ServiceSelector)
)

const eitherChannelSelectors = selectorList(eitherChannelSelector, "a channel selector", "BChannelSelectors", expressibleAs("either"))

/**
 * Selectors of the shared `/channels/tag` path. They cannot pin a mechanism: a list that does is
 * refused (write it with the getter or setter alias instead).
 */
export const EitherChannelSelectorsJson = partialWireShape({
  ...eitherChannelSelectors,
  write: (all: ReadonlyArray<ChannelSelector>) =>
    all.some((s) => s.mechanism._tag === "Exactly" && !selectsNothing(s))
      ? Result.fail("a selector of /channels/tag cannot restrict the mechanism; use /channels/getter/tags or /channels/setter/tags")
      : Result.succeed(eitherChannelSelectors.write(all))
}, Selectors)
