import { HttpServerResponse } from "effect/http"
import type { IncomingMessage, ServerResponse } from "node:http"
import { hasBody } from "./BodyFirst.ts"
import { sendStreamed, streamedTextOf } from "./StreamedText.ts"
import { closesConnection, drainAfter } from "./UnreadBody.ts"

const internalError = HttpServerResponse.text(JSON.stringify("internal error"), { status: 500, contentType: "application/json" })

/**
 * Writes `answer` on Node's response to `request`: its status and every header in one `writeHead`
 * (the security headers join them there, SecuredResponse), then its body in one `end`, which Node leaves
 * out for HEAD. Nothing is written for a client that went away. The gateway's answers hold their bytes
 * (JSON, text, files) or none, but for a long list's text, sent as it is made (StreamedText), and not
 * made at all for HEAD. The platform's streamed bodies are none of theirs.
 */
export const writeAnswer = (request: IncomingMessage, response: ServerResponse, answer: HttpServerResponse.HttpServerResponse): void => {
  if (response.writableEnded || response.destroyed) return
  const { body } = answer
  const streamed = streamedTextOf(answer)
  if (body._tag !== "Uint8Array" && body._tag !== "Empty" && streamed === undefined) {
    writeAnswer(request, response, internalError)
    return
  }
  // A request without a body is complete as soon as Node's handler returns: nothing of it is left to drain.
  if (!request.complete && hasBody(request.headers)) drainAfter(request, response)
  const headers = closesConnection(request) ? { ...answer.headers, connection: "close" } : answer.headers
  try {
    response.writeHead(answer.status, headers)
  } catch {
    // A header Node refuses (none of the gateway's own): the client can be told nothing sensible.
    response.destroy()
    return
  }
  if (body._tag === "Uint8Array") response.end(body.text ?? body.body)
  else if (streamed === undefined || request.method === "HEAD") response.end()
  else sendStreamed(response, streamed)
}
