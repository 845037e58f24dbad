import * as http from "node:http"
import * as https from "node:https"
import * as Effect from "effect/Effect"
import { HttpClient, HttpClientError, type HttpClientRequest, HttpClientResponse } from "effect/http"

/**
 * The client's HTTP in Node, on `node:http` and `node:https`: unlike `fetch`, they send a GET with a body,
 * which vocabulary A's reads with selectors are. Small on purpose: the client sends whole JSON bodies and
 * reads whole JSON answers, so a request is written at once and its answer gathered before it is read.
 * Ours rather than `@effect/platform-node`'s, so that the package needs nothing installed beside `effect`.
 */
export const nodeHttpClient: HttpClient.HttpClient = HttpClient.make((request, url, signal) =>
  Effect.callback<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>((resume) => {
    const failed = (description: string, cause?: unknown) =>
      resume(Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, description, cause }) })))
    const body = bodyBytes(request.body)
    if (body === undefined) return failed(`the client's Node transport sends whole bodies, not a ${request.body._tag} body`)
    const outgoing = (url.protocol === "https:" ? https : http).request(url, { method: request.method, headers: request.headers, signal }, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("error", (cause) => failed("the answer broke off", cause))
      incoming.on("end", () => resume(Effect.succeed(HttpClientResponse.fromWeb(request, webResponse(incoming, Buffer.concat(chunks))))))
    })
    outgoing.on("error", (cause) => failed(cause.message, cause))
    outgoing.end(body)
  })
)

/** The bytes of a whole body (none for `Empty`); `undefined` for a form or a stream, which the client never sends. */
const bodyBytes = (body: HttpClientRequest.HttpClientRequest["body"]): Uint8Array | string | undefined => {
  switch (body._tag) {
    case "Empty":
      return new Uint8Array()
    case "Uint8Array":
      return body.body
    case "Raw":
      return typeof body.body === "string" || body.body instanceof Uint8Array ? body.body : undefined
    default:
      return undefined
  }
}

/** A Node answer as the web's `Response`, which Effect's response reads; statuses that carry no body get none. */
const webResponse = (incoming: http.IncomingMessage, bytes: Buffer): Response => {
  const headers = new Headers()
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i] ?? "", incoming.rawHeaders[i + 1] ?? "")
  const status = incoming.statusCode ?? 500
  const bodiless = status === 204 || status === 205 || status === 304 || bytes.length === 0
  return new Response(bodiless ? null : bytes, { status, statusText: incoming.statusMessage ?? "", headers })
}
