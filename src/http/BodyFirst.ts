import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http"

/**
 * Request bodies are read before the app runs: the handler then finds the body whole and runs to its
 * answer in one go. Read inside the handler, a body that arrives a moment after the headers (as a small
 * body does, in the same packet) made every request with a body suspend and resume its fiber, which cost
 * more than the rest of a small request. Bounded like any read: past `limit` bytes reading stops and the
 * handler answers 413; what is left of the body is the server's to drain or cut when it answers.
 */

/** A body as read: whole, or why not. */
export type BodyBytes =
  | { readonly _tag: "Whole"; readonly bytes: Buffer }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Unreadable" }

/** Whether the request has a body to read: neither a length nor chunks means none (RFC 9112 §6.3). */
export const hasBody = (headers: IncomingHttpHeaders): boolean => {
  const declared = headers["content-length"]
  return declared === undefined ? headers["transfer-encoding"] !== undefined : Number(declared) !== 0
}

/** Whether the request declares a body longer than `limit`: refused (413) before a byte of it is read. */
export const declaresMoreThan = (headers: IncomingHttpHeaders, limit: number): boolean =>
  Number(headers["content-length"] ?? 0) > limit

/**
 * Reads `source` to its end, keeping at most `limit` bytes, and tells `done` once. A chunked body has no
 * declared length: bytes are counted as they arrive, so an endless body is never buffered. Answers the
 * function that stops reading (for a reader that gives up first).
 */
export const collectBody = (source: IncomingMessage, limit: number, done: (body: BodyBytes) => void): () => void => {
  const chunks: Array<Buffer> = []
  let size = 0
  const stop = () => {
    source.off("data", onData)
    source.off("end", onEnd)
    source.off("error", onError)
  }
  const finish = (body: BodyBytes) => {
    stop()
    done(body)
  }
  const onData = (chunk: Buffer) => {
    size += chunk.length
    if (size <= limit) chunks.push(chunk)
    else finish({ _tag: "TooLarge" })
  }
  const onEnd = () => finish({ _tag: "Whole", bytes: chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, size) })
  const onError = () => finish({ _tag: "Unreadable" })
  source.on("data", onData)
  source.on("end", onEnd)
  source.on("error", onError)
  return stop
}

const readFirst = new WeakMap<IncomingMessage, BodyBytes>()

/** The body read before the app ran, if it was (see `bodyFirst`). */
export const bodyReadFirst = (request: IncomingMessage): BodyBytes | undefined => readFirst.get(request)

/**
 * Wraps a Node `request` listener so that it is called once the body is in. A request without a body,
 * one declaring more than `limit` bytes (refused unread) or one waiting for `100 Continue` (the app
 * sends it) goes to `handle` at once, and the app reads what it needs itself.
 */
export const bodyFirst = (limit: number, handle: (request: IncomingMessage, response: ServerResponse) => void) =>
(request: IncomingMessage, response: ServerResponse): void => {
  const { headers } = request
  if (!hasBody(headers) || declaresMoreThan(headers, limit) || headers["expect"] !== undefined) {
    return handle(request, response)
  }
  collectBody(request, limit, (body) => {
    readFirst.set(request, body)
    handle(request, response)
  })
}
