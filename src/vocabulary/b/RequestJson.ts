import * as Schema from "effect/Schema"
import { SendTarget, TagRequest } from "../../domain/Request.ts"
import { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { DOCS } from "../common/Docs.ts"
import { TagsJson } from "../common/IdentifierJson.ts"
import { ValueInputJson } from "../common/ValueJson.ts"
import { hasTwoFields } from "../common/SelectorsById.ts"
import { partialWireRecord, fieldsOf, wireRecord } from "../common/WireRecord.ts"
import { wireShape } from "../common/WireShape.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import {
  EitherChannelSelectorsJson,
  GetterSelectorsJson,
  ServiceSelectorsJson,
  SetterSelectorsJson
} from "./SelectorJson.ts"

/**
 * Request bodies of vocabulary B (docs/reference.md §6.2): tag bodies and send bodies. (Read bodies are selectors:
 * see SelectorJson.) A body is read whole: one bad selector or value anywhere refuses all of it.
 */

// ---- tag bodies -----------------------------------------------------------------------------------

/** `{"<selectors>": sel(s), "tags": [..]}`: the key that names the selectors says what they select. */
const tagBody = (identifier: string, description: string) => ({ annotations: { expected: "a tag body", identifier, description } })

const serviceTags = TagRequest(ServiceSelector)
const serviceTagsField = fieldsOf(serviceTags)

/** `{"services": sel(s), "tags": [..]}` of `/services/tag`. */
export const ServiceTagBodyJson = wireRecord(serviceTags, {
  services: serviceTagsField.field("selectors", ServiceSelectorsJson),
  tags: serviceTagsField.field("tags", TagsJson)
}, tagBody("BServiceTagBody", DOCS ? "Tags (or untags) every service that matches." : ""))

const channelTags = TagRequest(ChannelSelector)
const channelTagsField = fieldsOf(channelTags)

/**
 * `{"set": sel(s), "tags": [..]}` of `/channels/tag`: selectors match channels of either mechanism.
 * Refused when a selector pins a mechanism: write it with the getter or setter alias body instead.
 */
export const ChannelTagBodyJson = partialWireRecord(channelTags, {
  set: channelTagsField.partial("selectors", EitherChannelSelectorsJson),
  tags: channelTagsField.field("tags", TagsJson)
}, tagBody("BChannelTagBody", DOCS ? "Tags (or untags) every channel that matches, of either mechanism." : ""))

/** `{"getters": sel(s), "tags": [..]}` of the alias `/channels/getter/tags`: getters only. */
export const GetterTagBodyJson = wireRecord(channelTags, {
  getters: channelTagsField.field("selectors", GetterSelectorsJson),
  tags: channelTagsField.field("tags", TagsJson)
}, tagBody("BGetterTagBody", DOCS ? "Tags (or untags) every getter that matches." : ""))

/** `{"setters": sel(s), "tags": [..]}` of the alias `/channels/setter/tags`: setters only. */
export const SetterTagBodyJson = wireRecord(channelTags, {
  setters: channelTagsField.field("selectors", SetterSelectorsJson),
  tags: channelTagsField.field("tags", TagsJson)
}, tagBody("BSetterTagBody", DOCS ? "Tags (or untags) every setter that matches." : ""))

// ---- send bodies ----------------------------------------------------------------------------------

const targetField = fieldsOf(SendTarget)

/** `{"select": sel(s), "value": V}`. */
const Target = wireRecord(SendTarget, {
  select: targetField.field("selectors", SetterSelectorsJson),
  value: targetField.field("value", ValueInputJson)
}, { annotations: { expected: `a send target {"select", "value"}`, identifier: "BSendTarget", description: DOCS ? "One value for every setter matched." : "" } })

type TargetWire = typeof Target.wire.Type

/** The pair `[sel(s), V]`. */
const Pair = Schema.Tuple([SetterSelectorsJson.wire, ValueInputJson.wire]).annotate({ description: DOCS ? "The pair [selectors, value]." : "" })

type PairWire = typeof Pair.Type

const readPair = ([selectors, value]: PairWire): SendTarget => ({ selectors: SetterSelectorsJson.read(selectors), value: ValueInputJson.read(value) })

const isSendTarget = (json: unknown): boolean => isJsonObject(json) && Object.hasOwn(json, "select")

/** One element of a list: a target object or, as FoxBox clients send it, a pair `[sel(s), V]`. */
const Element = Schema.Union([Target.wire, Pair]).annotate(explainedBy((input) =>
  Array.isArray(input)
    ? input.length === 2 ? Pair : `expected a pair [selectors, value], got an array of ${input.length} items`
    : isJsonObject(input)
    ? Target.wire
    : expectedGot(`a send target {"select": …, "value": …} or a pair [selectors, value]`, input)
))

const readElement = (json: TargetWire | PairWire): SendTarget => (isPair(json) ? readPair(json) : Target.read(json))

const isPair = (json: TargetWire | PairWire): json is PairWire => Array.isArray(json)

/** What can only be a value: `null` (Unit) or an object of one key; never a target, a pair or a list. */
const looksLikeValue = (json: unknown): boolean =>
  json === null || (isJsonObject(json) && !isSendTarget(json) && Object.keys(json).length === 1)

/**
 * The bare top-level pair `[sel(s), V]`: two items, the second a value. A list of two targets or pairs
 * (`[[sel, V], [sel, V]]`, or a target with a misspelt field) never reads as a pair.
 */
const isBarePair = (json: ReadonlyArray<unknown>): boolean =>
  json.length === 2 && !isSendTarget(json[0]) && looksLikeValue(json[1])

const List = Schema.Array(Element)

type SendBodyWire = typeof List.Type | TargetWire | PairWire

/** `{"select": sel(s), "value": V}` of selectors by id and a simple value (SelectorsById.ts, SimpleValueJson.ts). */
const isSimpleTarget = (json: unknown): boolean =>
  hasTwoFields(json, "select", (select) => SetterSelectorsJson.surely?.(select) === true, "value", (value) => ValueInputJson.surely?.(value) === true)

/** One such target, or a list of them: told without the schema, and read by the shape's `read`. */
const surelySimple = (json: unknown): json is SendBodyWire =>
  Array.isArray(json) ? json.length > 0 && json.every(isSimpleTarget) : isSimpleTarget(json)

const isArrayForm = (json: SendBodyWire): json is typeof List.Type | PairWire => Array.isArray(json)

/**
 * A send body in any of its forms (docs/reference.md §6.2): one target `{"select": sel(s), "value": V}`, a list
 * whose elements are targets or pairs `[sel(s), V]`, mixed freely, or one bare pair `[sel(s), V]`.
 * Always written as a list of targets, each target's selectors as an array.
 */
export const SendBodyJson = wireShape({
  wire: Schema.Union([List, Target.wire, Pair]).annotate({
    identifier: "BSendBody",
    description: DOCS ? "The body of send_values, in any of its forms: a target, a list of targets or pairs [selectors, value] " +
      "(as FoxBox clients send them) mixed, or one bare pair; the last value wins for a setter addressed twice." : ""
  }).annotate(explainedBy((input) =>
    isJsonObject(input)
      ? Target.wire
      : Array.isArray(input)
      ? (isBarePair(input) ? Pair : List)
      : expectedGot(`{"select": …, "value": …}, an array of them, or [selectors, value]`, input)
  )),
  // A list and a bare pair are both arrays: the one the union took is told apart as `explainedBy` does.
  read: (json: SendBodyWire): ReadonlyArray<SendTarget> =>
    !isArrayForm(json) ? [Target.read(json)] : isBarePair(json) ? [readPair(json as PairWire)] : (json as typeof List.Type).map(readElement),
  write: (targets: ReadonlyArray<SendTarget>) => targets.map(Target.write),
  surely: surelySimple
}, Schema.Array(SendTarget))

