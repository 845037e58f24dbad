import { Option, Result } from "effect"
import * as A from "./a/index.ts"
import * as B from "./b/index.ts"
import { InvalidInput } from "./common/InvalidInput.ts"
import type { Decoded } from "./common/InvalidInput.ts"
import { Unexpressible } from "./common/Unexpressible.ts"
import { decode, encode } from "./common/WireIssue.ts"

/** A vocabulary B request: what to send instead of a vocabulary A one. */
export interface RequestB {
  readonly operation: string
  readonly method: string
  readonly path: string
  /** WebSocket frames instead of an HTTP body for `watch_values`; absent: send no body (a read of everything). */
  readonly body?: unknown
}

/** One vocabulary A operation's B equivalent: where to send it, and its body from A's body. */
interface Translation {
  readonly operationB: string
  readonly method: string
  readonly path: string
  /** A read, which takes a missing body as "everything" (docs/reference.md §4). */
  readonly read: boolean
  readonly body: (json: unknown) => Result.Result<unknown, InvalidInput | Unexpressible>
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
}): Translation => ({
  operationB: t.operationB,
  method: t.method,
  path: t.path,
  read: t.read ?? false,
  body: (json) => Result.flatMap(t.decodeA(json), t.encodeB)
})

/**
 * Every vocabulary A operation (docs/migrating-a-to-b.md, "Words and paths") and its B equivalent. The request shapes
 * come from the two codecs; this table only pairs them, so the translation cannot drift from what the
 * gateway itself reads.
 */
export const translations: Readonly<Record<string, Translation>> = {
  get_nodes: translation({
    operationB: "get_services", method: "GET", path: "/api/v1/services", read: true,
    decodeA: (json) => decode(A.NodeSelectorsJson, json), encodeB: always(B.ServiceSelectorsJson.write)
  }),
  put_node_tag: translation({
    operationB: "add_service_tags", method: "POST", path: "/api/v1/services/tag",
    decodeA: (json) => decode(A.NodeTagBodyJson, json), encodeB: always(B.ServiceTagBodyJson.write)
  }),
  delete_node_tag: translation({
    operationB: "remove_service_tags", method: "DELETE", path: "/api/v1/services/tag",
    decodeA: (json) => decode(A.NodeTagBodyJson, json), encodeB: always(B.ServiceTagBodyJson.write)
  }),
  get_input_channels: translation({
    operationB: "get_getter_channels", method: "GET", path: "/api/v1/channels/getters", read: true,
    decodeA: (json) => decode(A.GetSelectorsJson, json), encodeB: always(B.GetterSelectorsJson.write)
  }),
  get_output_channels: translation({
    operationB: "get_setter_channels", method: "GET", path: "/api/v1/channels/setters", read: true,
    decodeA: (json) => decode(A.SetSelectorsJson, json), encodeB: always(B.SetterSelectorsJson.write)
  }),
  put_channel_tag: translation({
    operationB: "add_getter_tags / add_setter_tags", method: "POST", path: "/api/v1/channels/tag",
    decodeA: (json) => decode(A.ChannelTagBodyJson, json), encodeB: (value) => encode(B.ChannelTagBodyJson, value)
  }),
  delete_channel_tag: translation({
    operationB: "remove_getter_tags / remove_setter_tags", method: "DELETE", path: "/api/v1/channels/tag",
    decodeA: (json) => decode(A.ChannelTagBodyJson, json), encodeB: (value) => encode(B.ChannelTagBodyJson, value)
  }),
  get_channel_value: translation({
    operationB: "fetch_values", method: "GET", path: "/api/v1/channels/get", read: true,
    decodeA: (json) => decode(A.GetSelectorsJson, json), encodeB: always(B.GetterSelectorsJson.write)
  }),
  put_channel_value: translation({
    operationB: "send_values", method: "PUT", path: "/api/v1/channels/set",
    decodeA: (json) => decode(A.PutValueBodyJson, json), encodeB: always(B.SendBodyJson.write)
  }),
  register_channel_watch: translation({
    operationB: "watch_values", method: "WEBSOCKET", path: "/api/v1/channels/watch?vocabulary=b",
    decodeA: (json) => decode(A.WatchFrameJson, json), encodeB: (value) => encode(B.WatchFrameJson, value)
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

/**
 * The vocabulary B request equivalent to the vocabulary A request `operation` with `body` (`None`: a
 * request without a body, which a read takes as "everything" and any other operation refuses).
 */
export const translateToB = (
  operation: string,
  body: Option.Option<unknown>
): Result.Result<RequestB, InvalidInput | Unexpressible> => {
  const name = operationNames[operation]
  const t = name === undefined ? undefined : translations[name]
  if (t === undefined) {
    return Result.fail(new Unexpressible({ reason: `unknown vocabulary A operation "${operation}" (known: ${Object.keys(operationNames).join(", ")})` }))
  }
  const request = { operation: t.operationB, method: t.method, path: t.path }
  return Option.match(body, {
    onNone: () =>
      t.read ? Result.succeed(request) : Result.fail(new InvalidInput({ path: [], reason: "required, a JSON document" })),
    onSome: (json) => Result.map(t.body(json), (translated) => ({ ...request, body: translated }))
  })
}
