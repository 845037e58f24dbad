import { request } from "node:http"
import { Data, Effect } from "effect"

export class ExchangeFailed extends Data.TaggedError("ExchangeFailed")<{ readonly url: string; readonly reason: string }> {
  override get message(): string {
    return `${this.url}: ${this.reason}`
  }
}

/**
 * One request over a socket, answering the body of its 200 answer (any other status fails). `node:http`
 * rather than `fetch`, which refuses a body on GET (the API reads one there).
 */
export const exchangeOk = (
  url: string,
  method: string,
  headers: Readonly<Record<string, string>>,
  body?: string
): Effect.Effect<string, ExchangeFailed> =>
  Effect.callback<string, ExchangeFailed>((resume) => {
    // Node sends a GET's body without Content-Length (to be ended by closing the connection) unless told its length.
    const length = body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }
    const sent = request(url, { method, headers: { ...headers, ...length } }, (response) => {
      let text = ""
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
      response.on("end", () =>
        resume(
          response.statusCode === 200
            ? Effect.succeed(text)
            : Effect.fail(new ExchangeFailed({ url, reason: `answered ${String(response.statusCode)}: ${text.slice(0, 200)}` }))
        ))
    })
    sent.on("error", (error) => resume(Effect.fail(new ExchangeFailed({ url, reason: error.message }))))
    sent.end(body)
  })
