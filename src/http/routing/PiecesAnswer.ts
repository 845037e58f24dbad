import { HttpServerResponse } from "effect/http"
import { StreamedText, streamedAnswer } from "../transport/StreamedText.ts"
import { utf8Pieces } from "./Utf8Pieces.ts"

/**
 * Text longer than this (in UTF-16 code units, as JavaScript measures it) is streamed. A listing of the
 * demo home (some 20 KB) or of a few hundred services stays a short answer, made once and sent again while
 * the home is unchanged; a large home's (25 MB) is never whole in memory.
 */
const streamedOver = 1024 * 1024

/**
 * The answer with the text `pieces` make, as JSON: its bytes if the text is short, made at once (and
 * worth keeping: Handlers sends them again while the value is the same); else the pieces made so far and
 * the rest, made while they are sent (StreamedText), an answer sent once.
 */
export const piecesAnswer = (pieces: Iterable<string>, options: HttpServerResponse.Options.WithContentType): HttpServerResponse.HttpServerResponse => {
  const rest = pieces[Symbol.iterator]()
  const made: Array<string> = []
  let length = 0
  for (let read = rest.next(); read.done !== true; read = rest.next()) {
    made.push(read.value)
    length += read.value.length
    if (length > streamedOver) return streamedAnswer(new StreamedText(made, rest), options)
  }
  return HttpServerResponse.uint8Array(utf8Pieces(made), options)
}
