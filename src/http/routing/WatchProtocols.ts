import { bearerProtocolPrefix, watchProtocol } from "../../api/Watching.ts"
import { BadRequest } from "./HttpError.ts"

/**
 * The subprotocols a WebSocket request offers in `Sec-WebSocket-Protocol` (RFC 6455 §4.1, a comma-separated
 * list; Node joins repeated headers with commas); `undefined` when it offers none.
 */
export const offeredProtocols = (header: string | undefined): ReadonlyArray<string> | undefined =>
  header?.split(",").map((protocol) => protocol.trim()).filter((protocol) => protocol !== "")

/** The token a browser offers as the subprotocol `bearer.<token>`, if it offers one. */
export const protocolToken = (header: string | undefined): string | undefined =>
  offeredProtocols(header)?.find((protocol) => protocol.startsWith(bearerProtocolPrefix))?.slice(bearerProtocolPrefix.length)

/** 400 before the upgrade: subprotocols are offered, and the watch socket's is not among them (docs/reference.md §7). */
export const unspokenProtocol = (header: string | undefined): BadRequest | undefined => {
  const offered = offeredProtocols(header)
  return offered === undefined || offered.includes(watchProtocol)
    ? undefined
    : new BadRequest({ message: `Sec-WebSocket-Protocol: the watch socket speaks "${watchProtocol}", which the request does not offer` })
}
