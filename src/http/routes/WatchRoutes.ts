import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { HttpServerRequest } from "effect/http"
import { watching } from "../../api/Watching.ts"
import { CurrentCaller } from "../../auth/CurrentCaller.ts"
import { LiveSockets } from "../../auth/LiveSockets.ts"
import { scopeWatchRegistration } from "../../domain/Access.ts"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"
import { bindGroup } from "../routing/Handlers.ts"
import { TooManyRequests } from "../routing/HttpError.ts"
import { unspokenProtocol } from "../routing/WatchProtocols.ts"
import { WebSockets } from "../transport/KeepAliveServer.ts"
import { serveWatchSocket } from "../transport/WatchSocket.ts"

/** Close code for a socket whose credentials no longer hold (RFC 6455 "policy violation"). */
const POLICY_VIOLATION = 1008

const closeFor = (request: HttpServerRequest.HttpServerRequest, code: number, reason: string) =>
  Effect.map(WebSockets, (sockets) => sockets.of(NodeHttpServerRequest.toIncomingMessage(request).socket)?.close(code, reason))

/**
 * `GET /api/v1/channels/watch`, upgraded to the watch WebSocket (docs/reference.md §7). An ordinary route, so
 * whatever wraps the API's routes (authentication) answers before the upgrade; a request without the
 * upgrade is answered 426 by its binding (src/api/Watching.ts says it is a WebSocket).
 */
const watch = (forced: Vocabulary | undefined) => Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const unspoken = unspokenProtocol(request.headers["sec-websocket-protocol"])
  if (unspoken !== undefined) return yield* Effect.fail(unspoken)
  // The token's and its user's socket counts are checked before the upgrade (its right before the route: its access), so a refusal is plain HTTP.
  const caller = yield* CurrentCaller
  yield* Effect.gen(function*() {
    // Succeeds once the token is revoked, expires or loses its user: the socket then closes.
    const tokenEnded = yield* LiveSockets.use((sockets) => sockets.acquire(caller.tokenId, caller.user.name)).pipe(
      Effect.mapError((error) => new TooManyRequests({ message: error.message }))
    )
    const client = `token ${caller.tokenId} from ${Option.getOrElse(request.remoteAddress, () => "an unknown address")}`
    yield* serveWatchSocket(forced, (registration) => scopeWatchRegistration(registration, caller.scope), client).pipe(
      // The handshake failed (a malformed upgrade request, a peer gone): `ws` has already answered it.
      Effect.catchTag("HttpServerError", () => Effect.void),
      Effect.catchTag("SocketError", () => Effect.void),
      Effect.raceFirst(
        Effect.andThen(tokenEnded, closeFor(request, POLICY_VIOLATION, "the token was revoked or expired"))
      )
    )
  }).pipe(Effect.scoped)
})

/**
 * The watch route. Its endpoint's access (the `watch` right) is checked by the authentication step, so before
 * the upgrade, and before a request without one is answered 426: a browser's WebSocket does not tell why it
 * did not open; a client asks with a plain GET of the same path, and a token without the right must get its
 * 403 there too (docs/client.md).
 */
export const watchRoutes = bindGroup(watching, { watch_channels: ({ query }) => watch(query.vocabulary) })
