import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as A from "./a/index.ts"
import * as B from "./b/index.ts"
import { formatPath, InvalidInput } from "./common/InvalidInput.ts"
import type { Decoded } from "./common/InvalidInput.ts"
import { Unexpressible } from "./common/Unexpressible.ts"
import { decode, encode } from "./common/WireIssue.ts"
import { type AnswerB, type AnswerTranslation, countAnswer, eventsAnswer, resultsAnswer, untranslatedAnswer } from "./AnswerTranslation.ts"

/** A vocabulary B request: what to send instead of a vocabulary A one. */
export interface RequestB {
  readonly operation: string
  readonly method: string
  readonly path: string
  /** WebSocket frames instead of an HTTP body for `watch_values`; absent: send no body (a read of everything). */
  readonly body?: unknown
}

/** One vocabulary A operation's B equivalent: where to send it, its body from A's body, its answer from A's answer. */
interface Translation {
  readonly operationB: string
  readonly method: string
  readonly path: string
  /** A read, which takes a missing body as "everything" (docs/reference.md §4). */
  readonly read: boolean
  readonly body: (json: unknown) => Result.Result<unknown, InvalidInput | Unexpressible>
  readonly answer: AnswerTranslation
}

const always = <C>(encode: (canonical: C) => unknown) => (canonical: C) => Result.succeed(encode(canonical))

/** Decode with A into the canonical model, encode that with B. */
const translation = <C>(t: {
  readonly operationB: string
  readonly method: string
  readonly path: string
  readonly read?: boolean
  readonly decodeA: (json: unknown) => Decoded<C>
  readonly encodeB: (canonical: C) => Result.Result<unknown, Unexpressible>
  readonly answer: AnswerTranslation
}): Translation => ({
  operationB: t.operationB,
  method: t.method,
  path: t.path,
  read: t.read ?? false,
  body: (json) => Result.flatMap(t.decodeA(json), t.encodeB),
  answer: t.answer
})

/** Listings: B's resources carry what A's do not (an adapter, a service's properties). */
const services = untranslatedAnswer("B's services carry an adapter and properties, which A's nodes do not say: send the B request to read them")
const channels = untranslatedAnswer("B's channels carry an adapter, which A's channels do not say: send the B request to read them")

/**
 * Every vocabulary A operation (docs/migrating-a-to-b.md, "Words and paths") and its B equivalent. The request and
 * answer shapes come from the two codecs; this table only pairs them, so the translation cannot drift from what
 * the gateway itself reads and writes.
 */
export const translations: Readonly<Record<string, Translation>> = {
  get_nodes: translation({
    operationB: "get_services", method: "GET", path: "/api/v1/services", read: true,
    decodeA: (json) => decode(A.NodeSelectorsJson, json), encodeB: always(B.ServiceSelectorsJson.write),
    answer: services
  }),
  put_node_tag: translation({
    operationB: "add_service_tags", method: "POST", path: "/api/v1/services/tag",
    decodeA: (json) => decode(A.NodeTagBodyJson, json), encodeB: always(B.ServiceTagBodyJson.write),
    answer: countAnswer
  }),
  delete_node_tag: translation({
    operationB: "remove_service_tags", method: "DELETE", path: "/api/v1/services/tag",
    decodeA: (json) => decode(A.NodeTagBodyJson, json), encodeB: always(B.ServiceTagBodyJson.write),
    answer: countAnswer
  }),
  get_input_channels: translation({
    operationB: "get_getter_channels", method: "GET", path: "/api/v1/channels/getters", read: true,
    decodeA: (json) => decode(A.GetSelectorsJson, json), encodeB: always(B.GetterSelectorsJson.write),
    answer: channels
  }),
  get_output_channels: translation({
    operationB: "get_setter_channels", method: "GET", path: "/api/v1/channels/setters", read: true,
    decodeA: (json) => decode(A.SetSelectorsJson, json), encodeB: always(B.SetterSelectorsJson.write),
    answer: channels
  }),
  put_channel_tag: translation({
    operationB: "add_getter_tags / add_setter_tags", method: "POST", path: "/api/v1/channels/tag",
    decodeA: (json) => decode(A.ChannelTagBodyJson, json), encodeB: (value) => encode(B.ChannelTagBodyJson, value),
    answer: countAnswer
  }),
  delete_channel_tag: translation({
    operationB: "remove_getter_tags / remove_setter_tags", method: "DELETE", path: "/api/v1/channels/tag",
    decodeA: (json) => decode(A.ChannelTagBodyJson, json), encodeB: (value) => encode(B.ChannelTagBodyJson, value),
    answer: countAnswer
  }),
  get_channel_value: translation({
    operationB: "fetch_values", method: "GET", path: "/api/v1/channels/get", read: true,
    decodeA: (json) => decode(A.GetSelectorsJson, json), encodeB: always(B.GetterSelectorsJson.write),
    answer: resultsAnswer(A.FetchResultsJson, B.FetchResultsJson)
  }),
  put_channel_value: translation({
    operationB: "send_values", method: "PUT", path: "/api/v1/channels/set",
    decodeA: (json) => decode(A.PutValueBodyJson, json), encodeB: always(B.SendBodyJson.write),
    answer: resultsAnswer(A.SendResultsJson, B.SendResultsJson)
  }),
  register_channel_watch: translation({
    operationB: "watch_values", method: "WEBSOCKET", path: "/api/v1/channels/watch?vocabulary=b",
    decodeA: (json) => decode(A.WatchFrameJson, json), encodeB: (value) => encode(B.WatchFrameJson, value),
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
const translationOf = (operation: string): Result.Result<Translation, Unexpressible> => {
  const name = operationNames[operation]
  const t = name === undefined ? undefined : translations[name]
  return t === undefined
    ? Result.fail(new Unexpressible({ reason: `unknown vocabulary A operation "${operation}" (known: ${Object.keys(operationNames).join(", ")})` }))
    : Result.succeed(t)
}

/**
 * The vocabulary B request equivalent to the vocabulary A request `operation` with `body` (`None`: a
 * request without a body, which a read takes as "everything" and any other operation refuses).
 */
export const translateToB = (
  operation: string,
  body: Option.Option<unknown>
): Result.Result<RequestB, InvalidInput | Unexpressible> =>
  Result.flatMap(translationOf(operation), (t) => {
    const request = { operation: t.operationB, method: t.method, path: t.path }
    return Option.match(body, {
      onNone: () =>
        t.read ? Result.succeed(request) : Result.fail(new InvalidInput({ path: [], reason: "required, a JSON document" })),
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
  Result.flatMap(translationOf(operation), (t) => Result.map(t.answer(json), (answer) => ({ operation: t.operationB, ...answer })))

/** A translation's problem in words: where the input (`root`: the body sent, or the answer got) is wrong, or why B cannot say it. */
export const problemInWords = (error: InvalidInput | Unexpressible, root: "body" | "answer"): string =>
  error instanceof InvalidInput ? `${formatPath(error.path, root)}: ${error.reason}` : error.message
