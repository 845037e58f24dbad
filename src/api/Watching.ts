import { WatchFrameJson, WatchServerFrameJson } from "../vocabulary/WatchFrame.ts"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { tokenWith } from "./Access.ts"
import { endpoint, group } from "./Endpoint.ts"
import { vocabularyParameter } from "./QueryParameters.ts"

/** The watch WebSocket, in either vocabulary (docs/reference.md §7). */
/**
 * The subprotocol of the watch socket: a client offers it in `Sec-WebSocket-Protocol`, and the gateway
 * answers it (docs/reference.md §7).
 */
export const watchProtocol = "home-gateway.v1"

/**
 * How a browser, whose WebSocket cannot send `Authorization`, offers its token: one more subprotocol,
 * `bearer.<token>`, which the gateway reads and never answers (a header is not logged the way a URL is).
 */
export const bearerProtocolPrefix = "bearer."

export const watching = group(endpoint({
  operationId: "watch_channels",
  method: "GET",
  path: "/api/v1/channels/watch",
  access: tokenWith("watch"),
  tag: "watching",
  summary: DOCS ? "Watch channels (WebSocket, both vocabularies)" : "",
  description: DOCS ? (limits) =>
    "A WebSocket (send `Upgrade: websocket`; a plain GET is answered 426). Text frames, one JSON " +
    "document each. The client's first frame registers a watch, each later frame replaces it with no event lost " +
    "or repeated for the channels in both; a malformed frame is answered `{\"Error\": …}` and changes nothing. " +
    "The server announces the channels already watched, then values and the set's changes, within the token's " +
    "scope (a token without the `watch` right is answered 403 before the upgrade). An extension of this gateway: a " +
    "target with `\"initial_values\": true` (B) or `\"should_send_initial_values\": true` (A) also gets, after a " +
    "channel's addition, the value the gateway holds for it, as the value event a change would send, when the frame " +
    "registers it and when it joins the set later; never a value older than one already sent. It pings every " +
    `${limits.watchPingSeconds} s and drops a peer that does not answer. A registration's own events (additions, ` +
    "removals, current values) reach a client that reads however many they are. When over " +
    `${limits.watchQueueLimit} other events wait for a client, they are coalesced to the latest value per channel; if ` +
    `more than ${limits.watchQueueResume} remain, the socket is closed with 1013. See docs/watching.md.` : "",
  query: {
    vocabulary: vocabularyParameter(
      DOCS ? "The socket's vocabulary; absent, the first registration's shape tells (A: `source`, B: `select`)." : ""
    )
  },
  answer: { status: 101, description: DOCS ? "Switching Protocols: the WebSocket is open." : "" },
  upgrade: { clientFrames: WatchFrameJson, serverFrames: WatchServerFrameJson },
  errors: {
    "400": DOCS ? `Subprotocols are offered in Sec-WebSocket-Protocol, and ${watchProtocol} is not among them.` : "",
    "429": DOCS ? (limits) => `The token holds ${limits.watchSocketsPerToken} watch sockets already, or its user's tokens hold ${limits.watchSocketsPerUser}.` : ""
  }
}))
