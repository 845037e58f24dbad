import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as A from "../vocabulary/a/index.ts"
import {
  type AnswerB,
  type AnswerTranslation,
  countAnswer,
  eventsAnswer,
  resultsAnswer,
  untranslatedAnswer
} from "../vocabulary/AnswerTranslation.ts"
import * as B from "../vocabulary/b/index.ts"
import { formatPath, InvalidInput } from "../vocabulary/common/InvalidInput.ts"
import type { Decoded } from "../vocabulary/common/InvalidInput.ts"
import { Unexpressible } from "../vocabulary/common/Unexpressible.ts"
import { decode, encode } from "../vocabulary/common/WireIssue.ts"
import { channelTags } from "./ChannelTags.ts"
import type { Endpoint } from "./Endpoint.ts"
import { vocabularyA } from "./VocabularyA.ts"
import { vocabularyB } from "./VocabularyB.ts"
import { watching } from "./Watching.ts"

/**
 * Vocabulary A requests said in vocabulary B: each A endpoint paired with its B endpoint, a body
 * translated by decoding it with A's codec and encoding the canonical request with B's, an answer the same
 * way (src/vocabulary/AnswerTranslation.ts). Where to send the B request is the B endpoint's own method
 * and path, so the translation cannot drift from the routes the gateway serves.
 */

/** A vocabulary B request: what to send instead of a vocabulary A one. */
export interface RequestB {
  /** The B endpoint's operation id. */
  readonly operation: string
  /** Its method; `WEBSOCKET` for the watch, a socket rather than a request. */
  readonly method: string
  /** Its path, with `?vocabulary=b` on a route both vocabularies share. */
  readonly path: string
  /** WebSocket frames instead of an HTTP body for the watch; absent: send no body (a read of everything). */
  readonly body?: unknown
}

/** One vocabulary A endpoint, its B equivalent, its body from A's body and its answer from A's answer. */
export interface Translation {
  readonly a: Endpoint
  readonly b: Endpoint
  readonly body: (json: unknown) => Result.Result<unknown, InvalidInput | Unexpressible>
  readonly answer: AnswerTranslation
}

const always = <C>(encode: (canonical: C) => unknown) => (canonical: C) => Result.succeed(encode(canonical))

/** The pair `a`, `b`: decode with A into the canonical model, encode that with B. */
const translation = <C>(
  a: Endpoint,
  b: Endpoint,
  t: {
    readonly decodeA: (json: unknown) => Decoded<C>
    readonly encodeB: (canonical: C) => Result.Result<unknown, Unexpressible>
    readonly answer: AnswerTranslation
  }
): Translation => ({ a, b, body: (json) => Result.flatMap(t.decodeA(json), t.encodeB), answer: t.answer })

/** Listings: B's resources carry what A's do not (an adapter, a service's properties). */
const services = untranslatedAnswer("B's services carry an adapter and properties, which A's nodes do not say: send the B request to read them")
const channels = untranslatedAnswer("B's channels carry an adapter, which A's channels do not say: send the B request to read them")

/** A's channel tags and B's are one route both vocabularies share (B's getter and setter paths are FoxBox's aliases). */
const channelTagging = (endpoint: Endpoint) =>
  translation(endpoint, endpoint, {
    decodeA: (json) => decode(A.ChannelTagBodyJson, json),
    encodeB: (value) => encode(B.ChannelTagBodyJson, value),
    answer: countAnswer
  })

/** A's node tags are B's service tags, added or removed. */
const serviceTagging = (a: Endpoint, b: Endpoint) =>
  translation(a, b, {
    decodeA: (json) => decode(A.NodeTagBodyJson, json),
    encodeB: always(B.ServiceTagBodyJson.write),
    answer: countAnswer
  })

/**
 * Every vocabulary A operation (docs/migrating-a-to-b.md, "Words and paths") and its B equivalent, by A's
 * names. The request and answer shapes come from the two codecs, the routes from the endpoints; this table
 * only pairs them.
 */
export const translations: Readonly<Record<string, Translation>> = {
  get_nodes: translation(vocabularyA.get_nodes, vocabularyB.get_services, {
    decodeA: (json) => decode(A.NodeSelectorsJson, json),
    encodeB: always(B.ServiceSelectorsJson.write),
    answer: services
  }),
  put_node_tag: serviceTagging(vocabularyA.put_node_tag, vocabularyB.add_service_tags),
  delete_node_tag: serviceTagging(vocabularyA.delete_node_tag, vocabularyB.remove_service_tags),
  get_input_channels: translation(vocabularyA.get_input_channels, vocabularyB.get_getter_channels, {
    decodeA: (json) => decode(A.GetSelectorsJson, json),
    encodeB: always(B.GetterSelectorsJson.write),
    answer: channels
  }),
  get_output_channels: translation(vocabularyA.get_output_channels, vocabularyB.get_setter_channels, {
    decodeA: (json) => decode(A.SetSelectorsJson, json),
    encodeB: always(B.SetterSelectorsJson.write),
    answer: channels
  }),
  put_channel_tag: channelTagging(channelTags.add_channel_tags),
  delete_channel_tag: channelTagging(channelTags.remove_channel_tags),
  get_channel_value: translation(vocabularyA.get_channel_value, vocabularyB.fetch_values, {
    decodeA: (json) => decode(A.GetSelectorsJson, json),
    encodeB: always(B.GetterSelectorsJson.write),
    answer: resultsAnswer(A.FetchResultsJson, B.FetchResultsJson)
  }),
  put_channel_value: translation(vocabularyA.put_channel_value, vocabularyB.send_values, {
    decodeA: (json) => decode(A.PutValueBodyJson, json),
    encodeB: always(B.SendBodyJson.write),
    answer: resultsAnswer(A.SendResultsJson, B.SendResultsJson)
  }),
  register_channel_watch: translation(watching.watch_channels, watching.watch_channels, {
    decodeA: (json) => decode(A.WatchFrameJson, json),
    encodeB: (value) => encode(B.WatchFrameJson, value),
    answer: eventsAnswer
  })
}

/** The A operations `translate` knows, with their A aliases (put_input_tag and put_output_tag share one path). */
export const operationNames: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.keys(translations).map((name) => [name, name])),
  put_input_tag: "put_channel_tag",
  put_output_tag: "put_channel_tag",
  delete_input_tag: "delete_channel_tag",
  delete_output_tag: "delete_channel_tag"
}

/** The translation of the A operation `operation` (or of the path it shares with others), if `translate` knows it. */
export const translationOf = (operation: string): Result.Result<Translation, Unexpressible> => {
  const name = operationNames[operation]
  const t = name === undefined ? undefined : translations[name]
  return t === undefined
    ? Result.fail(new Unexpressible({ reason: `unknown vocabulary A operation "${operation}" (known: ${Object.keys(operationNames).join(", ")})` }))
    : Result.succeed(t)
}

/** Where a B request goes: the endpoint's method (a socket for the watch) and path, in B's words on a shared route. */
export const whereInB = (b: Endpoint): Omit<RequestB, "body"> => ({
  operation: b.operationId,
  method: b.upgrade === undefined ? b.method : "WEBSOCKET",
  path: "vocabulary" in b.query ? `${b.path}?vocabulary=b` : b.path
})

/**
 * The vocabulary B request equivalent to the vocabulary A request `operation` with `body` (`None`: a
 * request without a body, which a read takes as "everything" and any other operation refuses).
 */
export const translateToB = (
  operation: string,
  body: Option.Option<unknown>
): Result.Result<RequestB, InvalidInput | Unexpressible> =>
  Result.flatMap(translationOf(operation), (t) => {
    const request = whereInB(t.b)
    return Option.match(body, {
      // A read takes a missing body as "everything" (docs/reference.md §4): its A endpoint says what that means.
      onNone: () =>
        t.a.body !== undefined && Option.isSome(t.a.body.whenAbsent)
          ? Result.succeed(request)
          : Result.fail(new InvalidInput({ path: [], reason: "required, a JSON document" })),
      onSome: (json) => Result.map(t.body(json), (translated) => ({ ...request, body: translated }))
    })
  })

/** A vocabulary B answer: the operation it answers, and the answer (docs/migrating-a-to-b.md, "Results and errors"). */
export interface AnswerOfB extends AnswerB {
  readonly operation: string
}

/**
 * The vocabulary B answer equivalent to the answer `json` of the vocabulary A operation `operation`
 * (its problems at paths within the answer).
 */
export const translateAnswerToB = (operation: string, json: unknown): Result.Result<AnswerOfB, InvalidInput | Unexpressible> =>
  Result.flatMap(translationOf(operation), (t) => Result.map(t.answer(json), (answer) => ({ operation: t.b.operationId, ...answer })))

/** A translation's problem in words: where the input (`root`: the body sent, or the answer got) is wrong, or why B cannot say it. */
export const problemInWords = (error: InvalidInput | Unexpressible, root: "body" | "answer"): string =>
  error instanceof InvalidInput ? `${formatPath(error.path, root)}: ${error.reason}` : error.message
