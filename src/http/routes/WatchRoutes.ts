import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { jsonMessage } from "../HttpError.ts"
import { route } from "../RouteTable.ts"
import { serveWatchSocket } from "../WatchSocket.ts"
import { forcedVocabulary } from "./ChannelTagRoutes.ts"

export const watchPath = "/api/v1/channels/watch"

const upgradeRequired = jsonMessage(
  426,
  `${watchPath} is a WebSocket: connect with "Upgrade: websocket" (see docs/watching.md)`,
  { upgrade: "websocket", connection: "Upgrade" }
)

/**
 * `GET /api/v1/channels/watch`, upgraded to the watch WebSocket (wire.md §7). An ordinary route, so
 * whatever wraps the API's routes (authentication) answers before the upgrade.
 */
const watch = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (request.headers["upgrade"]?.toLowerCase() !== "websocket") return upgradeRequired
  const forced = yield* forcedVocabulary
  yield* serveWatchSocket(forced).pipe(
    Effect.scoped,
    // The handshake failed (a malformed upgrade request, a peer gone): `ws` has already answered it.
    Effect.catchTag("HttpServerError", () => Effect.void),
    Effect.catchTag("SocketError", () => Effect.void)
  )
  return HttpServerResponse.empty()
})

export const watchRoutes = [route("GET", watchPath, watch)]
