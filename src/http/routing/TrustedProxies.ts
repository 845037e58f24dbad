import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { HttpServerRequest } from "effect/http"
import { clientAddress, type TrustedProxies } from "./ClientAddress.ts"
import { BadRequest, toResponse } from "./HttpError.ts"
import type { HttpApp } from "./RouteTable.ts"

/**
 * `--trust-proxy`: in front of the routes, a request from a trusted proxy is given its client's address
 * as its `remoteAddress` (the proxy's stays its `peerAddress`), which the login throttle and the log lines
 * read; one whose relay header cannot be read is answered 400. With no trusted proxy, nothing is done.
 */
export const behindTrustedProxies = (trusted: TrustedProxies) => <R>(app: HttpApp<R>): HttpApp<R> =>
  trusted.size === 0 ? app : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (Option.isNone(request.remoteAddress)) return app
    const peer = request.remoteAddress.value
    const client = clientAddress(peer, { forwarded: request.headers["forwarded"], xForwardedFor: request.headers["x-forwarded-for"] }, trusted)
    if (Result.isFailure(client)) return Effect.succeed(toResponse(new BadRequest({ message: client.failure.message })))
    if (client.success === peer) return app
    const relayed = request.modify({ remoteAddress: Option.some(client.success), peerAddress: request.peerAddress })
    return Effect.provideService(app, HttpServerRequest.HttpServerRequest, relayed)
  })
