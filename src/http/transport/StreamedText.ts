import { HttpBody, HttpServerResponse } from "effect/http"
import type { ServerResponse } from "node:http"
import { utf8Pieces } from "../routing/Utf8Pieces.ts"

/**
 * A body of text made while it is sent (a long list's JSON: src/http/routing/PiecesAnswer.ts): the pieces
 * made already, then the rest as they are read. It is read once: an answer that carries it is sent once
 * and never kept. The answer carries it as the platform's raw body, which NodeAnswer recognises by its class.
 */
export class StreamedText {
  #taken = 0
  constructor(readonly made: ReadonlyArray<string>, readonly rest: Iterator<string>) {}

  /** The next piece: of those made, then of the rest, made now; `undefined` once none is left. */
  next(): string | undefined {
    if (this.#taken < this.made.length) return this.made[this.#taken++]
    const read = this.rest.next()
    return read.done === true ? undefined : read.value
  }
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
  const text = body.body
  const pieces: Array<string> = []
  for (let piece = text.next(); piece !== undefined; piece = text.next()) pieces.push(piece)
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
 * no more pieces are made, and nothing is thrown. A piece that cannot be made (a bug: the first MiB was
 * made by the route, where it would have been a 500) ends the connection, the answer cut short, rather
 * than throwing out of Node's `drain` event, which would stop the gateway.
 */
export const sendStreamed = (response: ServerResponse, text: StreamedText): void => {
  const send = (): void => {
    while (!response.destroyed) {
      let batch = ""
      let piece: string | undefined
      try {
        for (piece = text.next(); piece !== undefined; piece = text.next()) {
          batch += piece
          if (batch.length >= batchLength) break
        }
      } catch {
        response.destroy()
        return
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
