import { HttpBody, HttpServerResponse } from "effect/http"
import type { ServerResponse } from "node:http"
import { utf8Pieces } from "../routing/Utf8Pieces.ts"

/**
 * A body of text made while it is sent (a long list's JSON: src/http/routing/PiecesAnswer.ts): the pieces
 * made already, then the rest as they are read. It is read once: an answer that carries it is sent once
 * and never kept. The answer carries it as the platform's raw body, which NodeAnswer recognises by its class.
 */
export class StreamedText {
  constructor(readonly made: ReadonlyArray<string>, readonly rest: Iterator<string>) {}
}

/** An answer with `text` for body, without a length: Node sends it chunked (to an HTTP/1.0 client, up to the connection's close). */
export const streamedAnswer = (text: StreamedText, options: HttpServerResponse.Options.WithContentType): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.raw(text, options)

/** The streamed text `answer` carries, if it does. */
export const streamedTextOf = (answer: HttpServerResponse.HttpServerResponse): StreamedText | undefined => {
  const { body } = answer
  return body._tag === "Raw" && body.body instanceof StreamedText ? body.body : undefined
}

/**
 * `answer` with its streamed text, if it has one, made whole: its bytes, with their length. For the
 * platform's writer of an upgrade request's answer (RequestHandler's `upgradeApp`), which knows no body of
 * ours (and cut a Node stream given instead short: 67 KB of a 25 MB listing).
 */
export const madeWhole = (answer: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  const { body } = answer
  if (body._tag !== "Raw" || !(body.body instanceof StreamedText)) return answer
  const pieces = [...body.body.made]
  const { rest } = body.body
  for (let read = rest.next(); read.done !== true; read = rest.next()) pieces.push(read.value)
  return HttpServerResponse.setBody(answer, HttpBody.uint8Array(utf8Pieces(pieces), body.contentType))
}

/**
 * How much text is sent at a time: as much as Node's socket takes before it asks to wait (64 KiB), and
 * short enough to be an ordinary young string of V8's, which dies young, not one of its large objects.
 */
const batchLength = 64 * 1024

/**
 * Sends `text` as the body of `response`, whose head is written: the pieces are joined a batch at a time,
 * each batch written, and the next made only once Node's socket has taken the last (`drain`), so that a
 * slow reader holds one batch of the text, not all of it. A client that went away destroyed the response:
 * no more pieces are made, and nothing is thrown.
 */
export const sendStreamed = (response: ServerResponse, text: StreamedText): void => {
  let taken = 0
  const next = (): string | undefined => {
    if (taken < text.made.length) return text.made[taken++]
    const read = text.rest.next()
    return read.done === true ? undefined : read.value
  }
  const send = (): void => {
    while (!response.destroyed) {
      let batch = ""
      let piece = next()
      while (piece !== undefined) {
        batch += piece
        if (batch.length >= batchLength) break
        piece = next()
      }
      if (piece === undefined) {
        response.end(batch)
        return
      }
      if (!response.write(batch)) {
        response.once("drain", send)
        return
      }
    }
  }
  send()
}
