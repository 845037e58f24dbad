import { Buffer } from "node:buffer"

/**
 * The UTF-8 of text given in pieces (a list's JSON: JsonListText), as one buffer: each piece measured,
 * the buffer allocated once and left unfilled, each piece written into it. No piece is made bytes on its
 * own and copied again, and the text is never joined into one string (a copy more, and 25 MB of a large
 * home's listing in V8's heap). Pieces are well-formed text (JSON.stringify's is: a lone surrogate is
 * written escaped), so none ends inside a character.
 */
export const utf8Pieces = (pieces: ReadonlyArray<string>): Uint8Array => {
  let length = 0
  for (const piece of pieces) length += Buffer.byteLength(piece)
  const bytes = Buffer.allocUnsafe(length)
  let at = 0
  for (const piece of pieces) at += bytes.write(piece, at)
  return bytes
}
