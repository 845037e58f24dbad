import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { type Constraint, empty, exactly } from "../../domain/Constraint.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { forMechanism, selectsNothing } from "../../domain/SelectorAlgebra.ts"
import { describeJson, isJsonObject } from "../common/DescribeJson.ts"
import { ChannelIdJson, ServiceIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { BareKindJson } from "../common/KindNameJson.ts"
import { decodeWith, encodeTotal, encodeWith } from "../common/WireIssue.ts"
import { explainedBy, nullable, oneOrMany } from "../common/WireSchema.ts"

/**
 * Selectors of vocabulary B (wire.md §4). A GetterSelector or SetterSelector is the canonical
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
  getter: { identifier: "BGetterSelector", description: "Selects getters." },
  setter: { identifier: "BSetterSelector", description: "Selects setters." },
  either: { identifier: "BChannelSelector", description: "Selects channels of either mechanism (`/api/v1/channels/tag`)." }
}

const matchAll = " Every given field must hold; `{}` matches everything."

/** Whether the selector, read as a selector of `role`, can match no channel at all. */
const matchesNothingAs = (role: ChannelSelectorRole) => (selector: ChannelSelector): boolean =>
  selectsNothing(role === "either" ? selector : forMechanism(selector, role))

const serviceSelectorMatchesNothing = (selector: ServiceSelector): boolean =>
  selector.id._tag === "Conflict" ||
  selector.getters.some(matchesNothingAs("getter")) ||
  selector.setters.some(matchesNothingAs("setter"))

const unexpressible = (message: string, input: unknown) => Effect.fail(new SchemaIssue.InvalidValue({ message }, input))

const matchesNothing = (what: string) =>
  `this ${what} matches nothing (a Conflict, or the other mechanism); vocabulary B cannot write it`

/** An absent or null field constrains nothing; a present one is `Exactly` it. */
const constraint = <A>(value: A | null | undefined): Constraint<A> => (value === undefined || value === null ? empty : exactly(value))

/** The constrained value of a field, if it has one to write: `Empty` fields are left out. */
const written = <A>(c: Constraint<A>): A | undefined => (c._tag === "Exactly" ? c.value : undefined)

const channelSelectorJson = (role: ChannelSelectorRole) =>
  Schema.Struct({
    id: Schema.optionalKey(nullable(ChannelIdJson)).annotateKey({ description: "The channel with this id." }),
    service: Schema.optionalKey(nullable(ServiceIdJson)).annotateKey({ description: "Channels of the service with this id." }),
    tags: Schema.optionalKey(TagsJson).annotateKey({ description: "Channels that carry all of these tags." }),
    service_tags: Schema.optionalKey(TagsJson).annotateKey({ description: "Channels whose service carries all of these tags." }),
    kind: Schema.optionalKey(nullable(BareKindJson)).annotateKey({ description: "Channels of this kind." })
  }).annotate({
    expected: roleNames[role],
    identifier: roleDocs[role].identifier,
    description: roleDocs[role].description + matchAll
  }).pipe(Schema.decodeTo(
    Schema.toType(ChannelSelector),
    SchemaTransformation.transformEffect({
      decode: (json) =>
        Effect.succeed<ChannelSelector>({
          id: constraint(json.id),
          service: constraint(json.service),
          mechanism: role === "either" ? empty : exactly(role),
          kind: constraint(json.kind),
          tags: json.tags ?? [],
          serviceTags: json.service_tags ?? []
        }),
      // The shortest B form: unconstrained fields are left out, so `{}` is the selector of everything.
      encode: (selector) => {
        if (role !== "either" && matchesNothingAs(role)(selector)) {
          return unexpressible(matchesNothing(role === "getter" ? "GetterSelector" : "SetterSelector"), selector)
        }
        const id = written(selector.id)
        const service = written(selector.service)
        const kind = written(selector.kind)
        return Effect.succeed({
          ...(id === undefined ? {} : { id }),
          ...(service === undefined ? {} : { service }),
          ...(selector.tags.length === 0 ? {} : { tags: selector.tags }),
          ...(selector.serviceTags.length === 0 ? {} : { service_tags: selector.serviceTags }),
          ...(kind === undefined ? {} : { kind })
        })
      }
    })
  ))

/** A getter selector; written from a mechanism of `Exactly("getter")` or `Empty` (a getter context adds it). */
export const GetterSelectorJson = channelSelectorJson("getter")
export const SetterSelectorJson = channelSelectorJson("setter")
/** The selector of the shared `/channels/tag` path: it matches channels of either mechanism. */
export const EitherChannelSelectorJson = channelSelectorJson("either")

/** A nested list (a ServiceSelector's `getters`/`setters`) must be an array (wire.md §9). */
const nestedSelectors = <T, E>(item: Schema.Codec<T, E>, what: string) =>
  Schema.Array(item).annotate(explainedBy((input) =>
    Array.isArray(input)
      ? Schema.Array(item)
      : `expected an array of ${what}, got ${describeJson(input)}${
        isJsonObject(input) ? " (a single selector in place of an array is accepted only at the top level)" : ""
      }`
  ))

export const ServiceSelectorJson = Schema.Struct({
  id: Schema.optionalKey(nullable(ServiceIdJson)).annotateKey({ description: "The service with this id." }),
  tags: Schema.optionalKey(TagsJson).annotateKey({ description: "Services that carry all of these tags." }),
  getters: Schema.optionalKey(nestedSelectors(GetterSelectorJson, "GetterSelectors")).annotateKey({
    description: "For each, the service has at least one matching getter. An array, never a single selector."
  }),
  setters: Schema.optionalKey(nestedSelectors(SetterSelectorJson, "SetterSelectors")).annotateKey({
    description: "For each, the service has at least one matching setter. An array, never a single selector."
  })
}).annotate({
  expected: "a ServiceSelector",
  identifier: "BServiceSelector",
  description: "Selects services." + matchAll
}).pipe(Schema.decodeTo(
  Schema.toType(ServiceSelector),
  SchemaTransformation.transformEffect({
    decode: (json) =>
      Effect.succeed<ServiceSelector>({
        id: constraint(json.id),
        tags: json.tags ?? [],
        getters: json.getters ?? [],
        setters: json.setters ?? []
      }),
    encode: (selector) => {
      if (serviceSelectorMatchesNothing(selector)) return unexpressible(matchesNothing("ServiceSelector"), selector)
      const id = written(selector.id)
      return Effect.succeed({
        ...(id === undefined ? {} : { id }),
        ...(selector.tags.length === 0 ? {} : { tags: selector.tags }),
        ...(selector.getters.length === 0 ? {} : { getters: selector.getters }),
        ...(selector.setters.length === 0 ? {} : { setters: selector.setters })
      })
    }
  })
))

/**
 * `sel(s)` where B takes selectors at the top level (wire.md §4): one selector object stands for an array
 * of one; `[]` is an empty list, which matches nothing. Always written as an array, leaving out the
 * selectors that match nothing (which keeps what the list matches).
 */
const selectorList = <T, E>(item: Schema.Codec<T, E>, what: string, identifier: string, keep: (selector: T) => boolean) =>
  oneOrMany(item, what, {
    identifier,
    description: `${identifier.slice(1)}: one, or an array of them (a thing matches if it matches any; \`[]\` matches nothing).`
  }).pipe(Schema.decode(
    SchemaTransformation.transform({ decode: (all) => all, encode: (all) => all.filter(keep) })
  ))

const expressibleAs = (role: ChannelSelectorRole) => (selector: ChannelSelector) => !matchesNothingAs(role)(selector)

/** Whether B can write the selector as a GetterSelector (it matches some getter). */
export const expressibleAsGetterSelector = expressibleAs("getter")

export const GetterSelectorsJson = selectorList(GetterSelectorJson, "a GetterSelector", "BGetterSelectors", expressibleAs("getter"))
export const SetterSelectorsJson = selectorList(SetterSelectorJson, "a SetterSelector", "BSetterSelectors", expressibleAs("setter"))
export const ServiceSelectorsJson = selectorList(
  ServiceSelectorJson,
  "a ServiceSelector",
  "BServiceSelectors",
  (s) => !serviceSelectorMatchesNothing(s)
)

/**
 * Selectors of the shared `/channels/tag` path. They cannot pin a mechanism: a list that does is
 * refused (write it with the getter or setter alias instead).
 */
export const EitherChannelSelectorsJson = selectorList(
  EitherChannelSelectorJson,
  "a channel selector",
  "BChannelSelectors",
  expressibleAs("either")
).pipe(
  Schema.decode(SchemaTransformation.transformEffect({
    decode: (all) => Effect.succeed(all),
    encode: (all) =>
      all.some((s) => s.mechanism._tag === "Exactly" && !selectsNothing(s))
        ? unexpressible("a selector of /channels/tag cannot restrict the mechanism; use /channels/getter/tags or /channels/setter/tags", all)
        : Effect.succeed(all)
  }))
)

export const decodeGetterSelector = decodeWith(GetterSelectorJson)
export const decodeSetterSelector = decodeWith(SetterSelectorJson)
export const decodeEitherChannelSelector = decodeWith(EitherChannelSelectorJson)
export const decodeServiceSelector = decodeWith(ServiceSelectorJson)
export const decodeGetterSelectors = decodeWith(GetterSelectorsJson)
export const decodeSetterSelectors = decodeWith(SetterSelectorsJson)
export const decodeEitherChannelSelectors = decodeWith(EitherChannelSelectorsJson)
export const decodeServiceSelectors = decodeWith(ServiceSelectorsJson)

export const encodeGetterSelector = encodeWith(GetterSelectorJson)
export const encodeSetterSelector = encodeWith(SetterSelectorJson)
export const encodeServiceSelector = encodeWith(ServiceSelectorJson)
export const encodeEitherChannelSelectors = encodeWith(EitherChannelSelectorsJson)
export const encodeGetterSelectors = encodeTotal(GetterSelectorsJson)
export const encodeSetterSelectors = encodeTotal(SetterSelectorsJson)
export const encodeServiceSelectors = encodeTotal(ServiceSelectorsJson)
