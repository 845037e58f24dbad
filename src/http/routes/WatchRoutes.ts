import type { IncomingMessage } from "node:http"
import { Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { CurrentCaller } from "../../auth/CurrentCaller.ts"
import { LiveSockets } from "../../auth/LiveSockets.ts"
import { scopeWatchRegistration } from "../../domain/Scope.ts"
import { requireRight } from "../../gateway/ScopedCalls.ts"
import { Forbidden, jsonMessage, TooManyRequests } from "../HttpError.ts"
import { WebSockets } from "../KeepAliveWebSocket.ts"
import { route } from "../RouteTable.ts"
import { serveWatchSocket } from "../WatchSocket.ts"
import { forcedVocabulary } from "./ChannelTagRoutes.ts"

export const watchPath = "/api/v1/channels/watch"

const upgradeRequired = jsonMessage(
  426,
  `${watchPath} is a WebSocket: connect with "Upgrade: websocket" (see docs/watching.md)`,
  { upgrade: "websocket", connection: "Upgrade" }
)

/** Close code for a socket whose credentials no longer hold (RFC 6455 "policy violation"). */
const POLICY_VIOLATION = 1008

const closeFor = (request: HttpServerRequest.HttpServerRequest, code: number, reason: string) =>
  Effect.map(WebSockets, (sockets) => sockets.of(request.source as IncomingMessage)?.close(code, reason))

/**
 * `GET /api/v1/channels/watch`, upgraded to the watch WebSocket (docs/reference.md §7). An ordinary route, so
 * whatever wraps the API's routes (authentication) answers before the upgrade.
 */
const watch = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (request.headers["upgrade"]?.toLowerCase() !== "websocket") return upgradeRequired
  const forced = yield* forcedVocabulary
  // The token's right and its socket count are checked before the upgrade, so a refusal is plain HTTP.
  const caller = yield* CurrentCaller
  yield* requireRight(caller, "watch").pipe(Effect.mapError((error) => new Forbidden({ message: error.message })))
  yield* Effect.gen(function*() {
    // Succeeds once the token is revoked, expires or loses its user: the socket then closes.
    const tokenEnded = yield* LiveSockets.use((sockets) => sockets.acquire(caller.tokenId)).pipe(
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
  return HttpServerResponse.empty()
})

export const watchRoutes = [route("GET", watchPath, watch)]
