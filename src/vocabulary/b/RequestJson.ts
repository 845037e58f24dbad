import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { SendTarget, TagRequest } from "../../domain/Request.ts"
import { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { TagsJson } from "../common/IdentifierJson.ts"
import { ValueInputJson } from "../common/ValueJson.ts"
import { decodeWith, encodeTotal, encodeWith } from "../common/WireIssue.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import {
  EitherChannelSelectorsJson,
  GetterSelectorsJson,
  ServiceSelectorsJson,
  SetterSelectorsJson
} from "./SelectorJson.ts"

/**
 * Request bodies of vocabulary B (wire.md §6): tag bodies and send bodies. (Read bodies are selectors:
 * see SelectorJson.) A body is read whole: one bad selector or value anywhere refuses all of it.
 */
const transform = SchemaTransformation.transform

// ---- tag bodies -----------------------------------------------------------------------------------

/** `{"services": sel(s), "tags": [..]}` of `/services/tag`. */
export const ServiceTagBodyJson = Schema.Struct({ services: ServiceSelectorsJson, tags: TagsJson }).annotate({
  expected: "a tag body",
  identifier: "BServiceTagBody",
  description: "Tags (or untags) every service that matches."
}).pipe(
  Schema.decodeTo(
    Schema.toType(TagRequest(ServiceSelector)),
    transform({
      decode: (json): TagRequest<ServiceSelector> => ({ selectors: json.services, tags: json.tags }),
      encode: (request) => ({ services: request.selectors, tags: request.tags })
    })
  )
)

const channelTags = Schema.toType(TagRequest(ChannelSelector))

/** `{"set": sel(s), "tags": [..]}` of `/channels/tag`: selectors match channels of either mechanism. */
export const ChannelTagBodyJson = Schema.Struct({ set: EitherChannelSelectorsJson, tags: TagsJson }).annotate({
  expected: "a tag body",
  identifier: "BChannelTagBody",
  description: "Tags (or untags) every channel that matches, of either mechanism."
}).pipe(
  Schema.decodeTo(
    channelTags,
    transform({
      decode: (json): TagRequest<ChannelSelector> => ({ selectors: json.set, tags: json.tags }),
      encode: (request) => ({ set: request.selectors, tags: request.tags })
    })
  )
)

/** `{"getters": sel(s), "tags": [..]}` of the alias `/channels/getter/tags`: getters only. */
export const GetterTagBodyJson = Schema.Struct({ getters: GetterSelectorsJson, tags: TagsJson }).annotate({
  expected: "a tag body",
  identifier: "BGetterTagBody",
  description: "Tags (or untags) every getter that matches."
}).pipe(
  Schema.decodeTo(
    channelTags,
    transform({
      decode: (json): TagRequest<ChannelSelector> => ({ selectors: json.getters, tags: json.tags }),
      encode: (request) => ({ getters: request.selectors, tags: request.tags })
    })
  )
)

/** `{"setters": sel(s), "tags": [..]}` of the alias `/channels/setter/tags`: setters only. */
export const SetterTagBodyJson = Schema.Struct({ setters: SetterSelectorsJson, tags: TagsJson }).annotate({
  expected: "a tag body",
  identifier: "BSetterTagBody",
  description: "Tags (or untags) every setter that matches."
}).pipe(
  Schema.decodeTo(
    channelTags,
    transform({
      decode: (json): TagRequest<ChannelSelector> => ({ selectors: json.setters, tags: json.tags }),
      encode: (request) => ({ setters: request.selectors, tags: request.tags })
    })
  )
)

export const decodeServiceTagBody = decodeWith(ServiceTagBodyJson)
export const decodeChannelTagBody = decodeWith(ChannelTagBodyJson)
export const decodeGetterTagBody = decodeWith(GetterTagBodyJson)
export const decodeSetterTagBody = decodeWith(SetterTagBodyJson)
export const encodeServiceTagBody = encodeTotal(ServiceTagBodyJson)
/** Refused when a selector pins a mechanism: write it with the getter or setter alias body instead. */
export const encodeChannelTagBody = encodeWith(ChannelTagBodyJson)
export const encodeGetterTagBody = encodeTotal(GetterTagBodyJson)
export const encodeSetterTagBody = encodeTotal(SetterTagBodyJson)

// ---- send bodies ----------------------------------------------------------------------------------

const target = Schema.toType(SendTarget)

/** `{"select": sel(s), "value": V}`. */
const Target = Schema.Struct({ select: SetterSelectorsJson, value: ValueInputJson }).annotate({
  expected: `a send target {"select", "value"}`,
  identifier: "BSendTarget",
  description: "One value for every setter matched."
}).pipe(Schema.decodeTo(
  target,
  transform({
    decode: (json): SendTarget => ({ selectors: json.select, value: json.value }),
    encode: (t) => ({ select: t.selectors, value: t.value })
  })
))

/** The pair `[sel(s), V]`. */
const Pair = Schema.Tuple([SetterSelectorsJson, ValueInputJson]).annotate({ description: "The pair [selectors, value]." }).pipe(Schema.decodeTo(
  target,
  transform({ decode: ([selectors, value]): SendTarget => ({ selectors, value }), encode: (t) => [t.selectors, t.value] as const })
))

const isSendTarget = (json: unknown): boolean => isJsonObject(json) && Object.hasOwn(json, "select")

/** One element of a list: a target object or, as FoxBox clients send it, a pair `[sel(s), V]`. */
const Element = Schema.Union([Target, Pair]).annotate(explainedBy((input) =>
  Array.isArray(input)
    ? input.length === 2 ? Pair : `expected a pair [selectors, value], got an array of ${input.length} items`
    : isJsonObject(input)
    ? Target
    : expectedGot(`a send target {"select": …, "value": …} or a pair [selectors, value]`, input)
))

/** What can only be a value: `null` (Unit) or an object of one key; never a target, a pair or a list. */
const looksLikeValue = (json: unknown): boolean =>
  json === null || (isJsonObject(json) && !isSendTarget(json) && Object.keys(json).length === 1)

/**
 * The bare top-level pair `[sel(s), V]`: two items, the second a value. A list of two targets or pairs
 * (`[[sel, V], [sel, V]]`, or a target with a misspelt field) never reads as a pair.
 */
const isBarePair = (json: ReadonlyArray<unknown>): boolean =>
  json.length === 2 && !isSendTarget(json[0]) && looksLikeValue(json[1])

/** A form that holds one target; it writes only lists of one (the list form writes the others). */
const one = SchemaTransformation.transformEffect({
  decode: (t: SendTarget) => Effect.succeed<ReadonlyArray<SendTarget>>([t]),
  encode: (all: ReadonlyArray<SendTarget>) => {
    const [only, ...others] = all
    return only !== undefined && others.length === 0
      ? Effect.succeed(only)
      : Effect.fail(new SchemaIssue.InvalidValue({ message: "this form holds one target" }, all))
  }
})
const targets = Schema.toType(Schema.Array(SendTarget))
const List = Schema.Array(Element)
const OneTarget = Target.pipe(Schema.decodeTo(targets, one))
const BarePair = Pair.pipe(Schema.decodeTo(targets, one))

/**
 * A send body in any of its forms (wire.md §6): one target `{"select": sel(s), "value": V}`, a list
 * whose elements are targets or pairs `[sel(s), V]`, mixed freely, or one bare pair `[sel(s), V]`.
 * Always written as a list of targets, each target's selectors as an array.
 */
export const SendBodyJson = Schema.Union([List, OneTarget, BarePair]).annotate({
  identifier: "BSendBody",
  description: "The body of send_values, in any of its forms: a target, a list of targets or pairs [selectors, value] " +
    "(as FoxBox clients send them) mixed, or one bare pair; the last value wins for a setter addressed twice."
}).annotate(explainedBy((input) =>
  isJsonObject(input)
    ? OneTarget
    : Array.isArray(input)
    ? (isBarePair(input) ? BarePair : List)
    : expectedGot(`{"select": …, "value": …}, an array of them, or [selectors, value]`, input)
))

export const decodeSendBody = decodeWith(SendBodyJson)
export const encodeSendBody = encodeTotal(SendBodyJson)

// ---- fetch bodies ---------------------------------------------------------------------------------

/** The body of fetch_values: GetterSelector(s). */
export { decodeGetterSelectors as decodeFetchBody, encodeGetterSelectors as encodeFetchBody } from "./SelectorJson.ts"
