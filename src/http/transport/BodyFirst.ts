import * as Context from "effect/Context"
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http"

/**
 * Request bodies are read before the app runs: the handler then finds the body whole and runs to its
 * answer in one go. Read inside the handler, a body that arrives a moment after the headers (as a small
 * body does, in the same packet) made every request with a body suspend and resume its fiber, which cost
 * more than the rest of a small request. Bounded like any read, by the limit of the request's route
 * (its endpoint's `bodyLimit`, else `--max-body-bytes`: RouteTable's `bodyLimits`), found before a byte is
 * read: past it reading stops and the handler answers 413; what is left of the body is the server's to
 * drain or cut when it answers. A request no route answers (404, 405) has its body left unread.
 */

/** A body as read: whole, or longer than the limit of its route (`limit`). */
export type BodyBytes =
  | { readonly _tag: "Whole"; readonly bytes: Buffer }
  | { readonly _tag: "TooLarge"; readonly limit: number }

/** Whether the request has a body to read: neither a length nor chunks means none (RFC 9112 §6.3). */
export const hasBody = (headers: IncomingHttpHeaders): boolean => {
  const declared = headers["content-length"]
  return declared === undefined ? headers["transfer-encoding"] !== undefined : Number(declared) !== 0
}

/** Whether the request declares a body longer than `limit`: refused (413) before a byte of it is read. */
const declaresMoreThan = (headers: IncomingHttpHeaders, limit: number): boolean =>
  Number(headers["content-length"] ?? 0) > limit

/**
 * The bodies the server read before the app ran, by the Node request they came with (IncomingRequest's
 * `source`). Served without the body-first step, nothing was read first.
 */
export interface BodiesReadFirst {
  readonly of: (source: object) => BodyBytes | undefined
}

export const BodiesReadFirst = Context.Reference<BodiesReadFirst>("app/BodiesReadFirst", {
  defaultValue: () => ({ of: () => undefined })
})

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void

/** The limit of the body of a request to `method` and `url`; `undefined`: no route answers it. */
export type BodyLimitOf = (method: string, url: string) => number | undefined

/**
 * The body-first step of one server: `register` puts it on the server's `request` event in front of
 * `handle` (the app's handler), and `bodies` hands the app what it read. A request without a body, one no
 * route answers, or one declaring more than its route's limit (refused unread) goes to `handle` at once; any
 * other once its body is in. A client that disconnects before its body is whole has no one to answer: its
 * request never reaches the app. `arrived` is told of every request first, as it arrives (ConnectionDrain):
 * the server's one `request` listener, since with two Node copies its list of listeners on every request.
 */
export const bodyFirst = (limitOf: BodyLimitOf) => {
  const read = new WeakMap<object, BodyBytes>()
  const bodies: BodiesReadFirst = { of: (source) => read.get(source) }
  /** The limit the request's body is read to; `undefined`: it is not read (none, no route, or declared too long). */
  const readingLimit = (request: IncomingMessage): number | undefined => {
    if (!hasBody(request.headers)) return undefined
    const limit = limitOf(request.method ?? "", request.url ?? "")
    if (limit === undefined) return undefined
    if (!declaresMoreThan(request.headers, limit)) return limit
    read.set(request, { _tag: "TooLarge", limit })
    return undefined
  }
  const register = (server: Server, handle: RequestListener, arrived: RequestListener) => {
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      arrived(request, response)
      const limit = readingLimit(request)
      if (limit === undefined) return handle(request, response)
      collectBody(request, limit, (body) => {
        read.set(request, body)
        handle(request, response)
      })
    })
    // Node's own answer to `Expect: 100-continue` (go on, then the request as any other), except that a
    // body declared too long for its route, or sent to no route, is answered without asking the client for it.
    server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
      const limit = limitOf(request.method ?? "", request.url ?? "")
      if (limit !== undefined && !declaresMoreThan(request.headers, limit)) response.writeContinue()
      server.emit("request", request, response)
    })
  }
  return { bodies, register }
}

/**
 * Reads `source` to its end, keeping at most `limit` bytes, and tells `done` once, unless the client
 * goes away first. A chunked body has no declared length: bytes are counted as they arrive, so an
 * endless body is never buffered. Two listeners, left on the request (it is dropped with them): a
 * request whose client goes away mid-body never ends, and Node emits its `error` only to listeners
 * of its own; adding and removing four listeners per body cost more than reading it.
 */
const collectBody = (source: IncomingMessage, limit: number, done: (body: BodyBytes) => void): void => {
  const chunks: Array<Buffer> = []
  let size = 0
  source.on("data", (chunk: Buffer) => {
    if (size > limit) return
    size += chunk.length
    if (size <= limit) chunks.push(chunk)
    else done({ _tag: "TooLarge", limit })
  })
  source.on("end", () => {
    if (size <= limit) done({ _tag: "Whole", bytes: chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, size) })
  })
}
