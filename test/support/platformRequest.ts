import { NodeHttpIncomingMessage } from "@effect/platform-node/NodeHttpIncomingMessage"
import { Effect, Option, Stream } from "effect"
import { HttpServerError, HttpServerRequest } from "effect/http"
import type { IncomingRequestShape } from "../../src/http/routing/IncomingRequest.ts"

/**
 * The platform's request (`HttpServerRequest`) over the Node request the gateway's handler read
 * (IncomingRequest), for test routes that read it: the gateway's routes read IncomingRequest, and only
 * the watch socket the platform's request, which the platform's upgrade handler gives it. Its headers,
 * address and body are the platform's readers of the same Node message; what no test route uses dies.
 */
class PlatformRequest extends NodeHttpIncomingMessage<HttpServerError.HttpServerError> implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId] = HttpServerRequest.TypeId
  readonly url: string
  readonly originalUrl: string
  readonly method: string
  readonly cookies = {}
  readonly peerAddress: Option.Option<string>
  readonly protocol = "http" as const
  readonly multipart = Effect.die("not offered to test routes")
  readonly multipartStream = Stream.die("not offered to test routes")
  readonly upgrade = Effect.die("not offered to test routes")
  readonly upgradeWith = () => Effect.die("not offered to test routes")

  constructor(incoming: IncomingRequestShape, onError: (cause: unknown) => HttpServerError.HttpServerError) {
    super(incoming.source, onError, Option.fromUndefinedOr(incoming.remoteAddress))
    this.url = incoming.source.url ?? incoming.path
    this.originalUrl = this.url
    this.method = incoming.method
    this.peerAddress = Option.fromUndefinedOr(incoming.source.socket.remoteAddress)
  }

  readonly modify = (): HttpServerRequest.HttpServerRequest => this

  toJSON(): unknown {
    return { method: this.method, url: this.url }
  }
}

export const platformRequestOf = (incoming: IncomingRequestShape): HttpServerRequest.HttpServerRequest => {
  const request: HttpServerRequest.HttpServerRequest = new PlatformRequest(
    incoming,
    (cause) => new HttpServerError.HttpServerError({ reason: new HttpServerError.RequestParseError({ request, cause }) })
  )
  return request
}
