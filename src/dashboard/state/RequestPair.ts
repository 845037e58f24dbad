import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { Endpoint, Method, Path } from "../../api/Endpoint.ts"
import { problemInWords, type RequestB, translateToB, translationOf } from "../../api/Translation.ts"
import { routeOf } from "../../client/Requests.ts"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"
import { parseJsonText } from "../../vocabulary/common/JsonText.ts"

/**
 * A vocabulary A request typed on the Migration page, its vocabulary B equivalent (the project's own
 * translation), and where a browser sends each: the route table's method and path, a read with a body
 * at its POST or PUT alias as the client sends it (src/client/Requests.ts).
 */

/** A request a browser can send, or why it cannot. */
export type Outgoing =
  | {
    readonly _tag: "Sendable"
    readonly method: Method
    readonly path: Path
    readonly query: Readonly<Record<string, string>>
    readonly body: Option.Option<unknown>
  }
  | { readonly _tag: "Unsendable"; readonly why: string }

export interface RequestPair {
  /** The B request as the translation says it (its method may be one a browser cannot send a body with). */
  readonly translation: RequestB
  readonly a: Outgoing
  readonly b: Outgoing
}

const readWithBody = "a browser cannot send it: vocabulary A takes a read's selectors in the body of a GET, which a " +
  "browser does not send (B's reads take them at POST or PUT too). Leave the body empty to read everything, or " +
  "send it from outside the browser."

const watching = "a watch is a WebSocket that stays open, not a request and its answer: send the B frame above on the " +
  "socket /api/v1/channels/watch?vocabulary=b (the Home page watches that way)."

/** Only the watch, a WebSocket, is not sent from here. */
const outgoing = (endpoint: Endpoint, vocabulary: Vocabulary, body: Option.Option<unknown>): Outgoing => {
  if (endpoint.upgrade !== undefined) return { _tag: "Unsendable", why: watching }
  const { method, path } = routeOf(endpoint, Option.isSome(body))
  if (method === "GET" && Option.isSome(body)) return { _tag: "Unsendable", why: readWithBody }
  // The shared tag path reads the body in the vocabulary it is told: each request counts in its own.
  const query: Record<string, string> = "vocabulary" in endpoint.query ? { vocabulary } : {}
  return { _tag: "Sendable", method, path, query, body }
}

/** The A request `operation` with the body `text` (blank: no body), and its B equivalent; or the problem, in words. */
export const requestPair = (operation: string, text: string): Result.Result<RequestPair, string> =>
  Result.flatMap(
    Result.mapError(parseJsonText(text), (reason) => `body: invalid JSON: ${reason}`),
    (body) =>
      Result.mapError(
        Result.flatMap(translationOf(operation), (pair) =>
          Result.map(translateToB(operation, body), (translation) => ({
            translation,
            a: outgoing(pair.a, "a", body),
            b: outgoing(pair.b, "b", translation.body === undefined ? Option.none() : Option.some(translation.body))
          }))),
        (error) => problemInWords(error, "body")
      )
  )
