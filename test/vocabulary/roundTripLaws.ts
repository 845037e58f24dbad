import { Arbitrary, Effect, Equal, identity, Option, Result, Schema } from "effect"
import { HealthJson } from "../../src/api/Health.ts"
import { NewTokenJson, TokenJson } from "../../src/api/Tokens.ts"
import { NewUserJson } from "../../src/api/Users.ts"
import type { TokenScope } from "../../src/domain/Access.ts"
import type { Range } from "../../src/domain/Range.ts"
import { type SendTarget, TagRequest } from "../../src/domain/Request.ts"
import { ChannelSelector } from "../../src/domain/Selector.ts"
import type { Service } from "../../src/domain/Service.ts"
import type { TokenView } from "../../src/domain/Token.ts"
import { WatchEvent, type WatchRegistration } from "../../src/domain/Watch.ts"
import * as A from "../../src/vocabulary/a/index.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import { decodeChannelTagBody, type Vocabulary } from "../../src/vocabulary/ChannelTagBody.ts"
import { AdapterIdJson, ChannelIdJson, ServiceIdJson, TagsJson } from "../../src/vocabulary/common/IdentifierJson.ts"
import { RangeJson } from "../../src/vocabulary/common/RangeJson.ts"
import { TimestampJson, TimestampOrNullJson } from "../../src/vocabulary/common/TimestampJson.ts"
import { ValueInputJson, ValueJson, ValueOrNullJson, ValueTypeJson } from "../../src/vocabulary/common/ValueJson.ts"
import { parseJson } from "../../src/vocabulary/common/JsonText.ts"
import { decode, decodeWith } from "../../src/vocabulary/common/WireIssue.ts"
import { type PartialWireShape, plain, type WireShape, wireShape } from "../../src/vocabulary/common/WireShape.ts"
import { encodeWatchEvent, WatchFrameErrorJson, WatchServerFrameJson } from "../../src/vocabulary/WatchFrame.ts"
import type { Note } from "../laws/law.ts"
import * as N from "./wireNormalForms.ts"

/**
 * The round-trip law of every wire shape: for every model value `x` its model's arbitrary generates,
 *
 *   decode(encode(x)) = normal(x)
 *
 * through JSON text, as on the wire, compared with Effect's structural `Equal.equals`. `normal` is the
 * identity but for what a wire form cannot carry or reads in canonical form (tag sets sorted, durations to
 * the millisecond, B's selectors that match nothing left out of lists, A's lists in id order…): each such
 * exception is named, with its reason, in `wireNormalForms.ts`, written apart from the codecs. So a read
 * or a write that drops or changes a field fails the law.
 *
 * A value a vocabulary has no words for (a partial shape's write fails: B's selector that matches nothing
 * alone, A's watch on a range) is not said, and skipped. A value no part of the gateway builds (a range
 * whose bounds differ in type, a service holding another's channel) is first made one the gateway holds
 * (`drawn`); what is written must then always read. Where a vocabulary can say few of the model's values
 * (B watches topology always, A's put_channel_value holds one target), `drawn` makes them sayable: the
 * refusal of the others has its unit test beside the shape's.
 */
export interface Law {
  readonly name: string
  /** The check of the law, noting for each value whether it was said (written). */
  readonly check: (options: Arbitrary.CheckOptions, note: Note) => Effect.Effect<Arbitrary.CheckResult<unknown, unknown>>
}

interface LawOf<T> {
  /** The model's schema: its arbitrary generates `x`. */
  readonly model: Schema.Codec<T, unknown>
  /** `x` made a value the gateway holds (or the vocabulary can say), where the model's schema allows more. */
  readonly drawn?: (x: T) => T
  /** The JSON of `x`, or why the vocabulary has no words for it. */
  readonly encode: (x: T) => Result.Result<unknown, string>
  readonly decode: (json: unknown) => Result.Result<unknown, unknown>
  /** What reading `x`'s JSON must give (see wireNormalForms.ts). */
  readonly normal: (x: T) => unknown
}

const law = <T>(name: string, spec: LawOf<T>): Law => ({
  name,
  check: (options, note) => {
    const generated = Arbitrary.schema(spec.model)
    const values = spec.drawn === undefined ? generated : Arbitrary.map(generated, spec.drawn)
    const holds = (x: T): boolean | Effect.Effect<boolean, unknown> => {
      const written = spec.encode(x)
      note(Result.isSuccess(written))
      if (Result.isFailure(written)) return true // nothing to say: this vocabulary has no words for x
      const text = JSON.stringify(written.success)
      const read = Result.flatMap(parseJson(text), spec.decode) // read as the gateway and its client read text
      if (Result.isFailure(read)) return Effect.fail({ wrote: text, refused: String(read.failure) })
      const expected = spec.normal(x)
      return Equal.equals(read.success, expected) || Effect.fail({ wrote: text, read: read.success, expected })
    }
    // The model schemas' filters discard some values: allow as many per run at any number of runs.
    return Arbitrary.checkEffect(values, holds, { maxDiscards: 70 * (options.runs ?? 150), ...options })
  }
})

const total = <T, W>(name: string, shape: WireShape<T, W>, normal: (x: T) => T, drawn?: (x: T) => T): Law =>
  law(name, {
    model: shape.model,
    decode: decodeWith(shape),
    encode: (x) => Result.succeed(shape.write(x)),
    normal,
    ...(drawn === undefined ? {} : { drawn })
  })

const partial = <T, W>(name: string, shape: PartialWireShape<T, W>, normal: (x: T) => T, drawn?: (x: T) => T): Law =>
  law(name, { model: shape.model, decode: decodeWith(shape), encode: shape.write, normal, ...(drawn === undefined ? {} : { drawn }) })

const identifier = (name: string, schema: Schema.Codec<string, string>): Law => total(name, wireShape(plain(schema), schema), identity)

/** A pure wire schema (no model of its own): what it describes reads as it is. */
const asItIs = <T>(name: string, schema: Schema.Codec<T, unknown>): Law =>
  law(name, { model: schema, decode: Schema.decodeUnknownResult(schema), encode: Result.succeed, normal: identity })

// ---- values drawn: ones the gateway holds, or the vocabulary can say ------------------------------------

/** A two-bound range's bounds have one type (a client's other range is refused with a 400). */
const heldRange = (r: Range): Range =>
  (r._tag === "BetweenEq" || r._tag === "OutOfStrict") && r.low._tag !== r.high._tag ? { ...r, high: r.low } : r

/** B always watches topology: it can say only such registrations. */
const bRegistration = (registration: WatchRegistration): WatchRegistration =>
  registration.map((target) => ({
    ...target,
    values: target.values._tag === "InRange" ? { _tag: "InRange", range: heldRange(target.values.range) } : target.values,
    topology: true
  }))

/** A's put_channel_value body holds one target. */
const oneTarget = (targets: ReadonlyArray<SendTarget>): ReadonlyArray<SendTarget> => targets.slice(0, 1)

/** A service holds its own channels, each in the list of its mechanism. */
const heldService = (service: Service): Service => ({
  ...service,
  getters: service.getters.map((channel) => ({ ...channel, service: service.id, mechanism: "getter" })),
  setters: service.setters.map((channel) => ({ ...channel, service: service.id, mechanism: "setter" }))
})

const heldNode = (node: A.NodeInA): A.NodeInA => ({
  ...node,
  getters: node.getters.map((channel) => ({ ...channel, service: node.id, mechanism: "getter" })),
  setters: node.setters.map((channel) => ({ ...channel, service: node.id, mechanism: "setter" }))
})

// ---- shapes read by code outside the vocabularies' shapes --------------------------------------------

const channelTags = TagRequest(ChannelSelector)

/** `/channels/tag` reads either vocabulary's body (B tried first): each reads as its own vocabulary says. */
const channelTagBody = (vocabulary: "A" | "B"): Law =>
  law(`ChannelTagBody as ${vocabulary} writes it, read by /channels/tag`, {
    model: channelTags,
    decode: (json) => decodeChannelTagBody(json, undefined),
    encode: vocabulary === "A" ? A.ChannelTagBodyJson.write : B.ChannelTagBodyJson.write,
    normal: vocabulary === "A" ? N.aTagRequest(N.aChannelSelector) : N.bTagRequest(N.bChannelSelectors("either"))
  })

/**
 * What the watch socket sends, an event (written once per vocabulary, as the socket does) or the answer to
 * a malformed frame, is what the published server frame schema describes, and reads back as it was.
 */
const watchServerFrame = (vocabulary: Vocabulary): Law => {
  const isFrame = Schema.is(WatchServerFrameJson)
  const isFrameError = Schema.is(WatchFrameErrorJson)
  const readEvent = vocabulary === "a" ? (json: unknown) => decode(A.WatchEventJson, json) : (json: unknown) => decode(B.WatchEventJson, json)
  return law(`watch server frame of ${vocabulary.toUpperCase()}`, {
    model: Schema.Union([WatchEvent, WatchFrameErrorJson]),
    encode: (frame) =>
      isFrameError(frame)
        ? Result.succeed(frame)
        : Option.match(encodeWatchEvent(vocabulary, frame), {
          onNone: () => Result.fail("vocabulary A has no event for a refused watch"),
          onSome: Result.succeed
        }),
    decode: (json) =>
      !isFrame(json) ? Result.fail("not a frame WatchServerFrameJson describes") : isFrameError(json) ? Result.succeed(json) : readEvent(json),
    normal: (frame) => (isFrameError(frame) ? frame : N.watchEvent(frame))
  })
}

/** A token as the routes list it: with a scope vocabulary B writes (they leave out a token with another). */
const listedToken = (token: TokenView): TokenView =>
  Option.exists(token.scope, (scope) => Result.isFailure(B.ScopeJson.write(scope))) ? { ...token, scope: Option.none() } : token

const withBScope = <T extends { readonly scope: Option.Option<TokenScope> }>(token: T): T => ({ ...token, scope: Option.map(token.scope, N.bScope) })

/** The round trip of every wire shape, each a law of test/vocabulary/roundTrip.laws.test.ts. */
export const roundTrips: ReadonlyArray<Law> = [
  identifier("ChannelId", ChannelIdJson),
  identifier("ServiceId", ServiceIdJson),
  identifier("AdapterId", AdapterIdJson),
  total("Tags", TagsJson, N.tagSet),
  total("Timestamp", TimestampJson, identity),
  total("TimestampOrNull", TimestampOrNullJson, identity),
  total("ValueTypeName", wireShape(plain(ValueTypeJson), ValueTypeJson), identity),
  total("Value", ValueJson, N.value),
  total("ValueInput", ValueInputJson, N.value),
  total("ValueOrNull", ValueOrNullJson, N.valueOrNone),
  total("Range", RangeJson, N.range, heldRange),
  channelTagBody("A"),
  channelTagBody("B"),
  total("B Kind", B.KindJson, identity),
  total("B GetterSelectors", B.GetterSelectorsJson, N.bChannelSelectors("getter")),
  total("B SetterSelectors", B.SetterSelectorsJson, N.bChannelSelectors("setter")),
  total("B ServiceSelectors", B.ServiceSelectorsJson, N.bServiceSelectors),
  partial("B channel selectors of /channels/tag", B.EitherChannelSelectorsJson, N.bChannelSelectors("either")),
  total("B Channel", B.ChannelJson, N.bChannel),
  total("B Channels", B.ChannelsJson, (channels) => channels.map(N.bChannel)),
  total("B Service", B.ServiceJson, N.bService, heldService),
  total("B Services", B.ServicesJson, (services) => services.map(N.bService), (services) => services.map(heldService)),
  total("B ServiceTagBody", B.ServiceTagBodyJson, N.bTagRequest(N.bServiceSelectors)),
  partial("B ChannelTagBody", B.ChannelTagBodyJson, N.bTagRequest(N.bChannelSelectors("either"))),
  total("B GetterTagBody", B.GetterTagBodyJson, N.bTagRequest(N.bChannelSelectors("getter"))),
  total("B SetterTagBody", B.SetterTagBodyJson, N.bTagRequest(N.bChannelSelectors("setter"))),
  total("B SendBody", B.SendBodyJson, N.bSendBody),
  total("B FetchResults", B.FetchResultsJson, N.bResults(N.valueOrNone)),
  total("B SendResults", B.SendResultsJson, N.bResults<void>(identity)),
  total("B Error", B.ChannelErrorJson, identity),
  partial("B WatchFrame", B.WatchFrameJson, N.bWatchRegistration, bRegistration),
  total("B WatchEvent", B.WatchEventJson, N.watchEvent),
  watchServerFrame("b"),
  partial("B Scope", B.ScopeJson, N.bScope),
  total("A Kind", A.KindJson, identity),
  partial("A GetSelectors", A.GetSelectorsJson, (selectors) => selectors.map(N.aChannelSelector)),
  partial("A SetSelectors", A.SetSelectorsJson, (selectors) => selectors.map(N.aChannelSelector)),
  partial("A channel tag selectors", A.ChannelTagSelectorsJson, (selectors) => selectors.map(N.aChannelSelector)),
  partial("A NodeSelectors", A.NodeSelectorsJson, (selectors) => selectors.map(N.aNodeSelector)),
  total("A Channel", A.ChannelJson, N.aChannel),
  total("A Channels", A.ChannelsJson, N.aChannels),
  total("A Node", A.NodeJson, N.aNode, heldNode),
  total("A Nodes", A.NodesJson, N.aNodes, (nodes) => nodes.map(heldNode)),
  partial("A NodeTagBody", A.NodeTagBodyJson, N.aTagRequest(N.aNodeSelector)),
  partial("A ChannelTagBody", A.ChannelTagBodyJson, N.aTagRequest(N.aChannelSelector)),
  partial("A PutValueBody", A.PutValueBodyJson, N.aSendBody, oneTarget),
  total("A FetchResults", A.FetchResultsJson, N.aResults(N.valueOrNone)),
  total("A SendResults", A.SendResultsJson, N.aResults<void>(identity)),
  total("A Error", A.ChannelErrorJson, identity),
  partial("A WatchFrame", A.WatchFrameJson, (targets) => targets.map(N.aWatchTarget)),
  total("A WatchEvent", A.WatchEventJson, N.watchEvent),
  watchServerFrame("a"),
  total("Token", TokenJson, withBScope, listedToken),
  partial("NewToken", NewTokenJson, withBScope),
  total("NewUser", NewUserJson, identity),
  asItIs("Health", HealthJson)
]
