import * as Result from "effect/Result"
import type { IncomingHttpHeaders } from "node:http"
import { clientAddress, type TrustedProxies } from "./ClientAddress.ts"
import { BadRequest } from "./HttpError.ts"

/** The client's address of a request from `peer`, its connection's: unknown if its socket has none (closed already). */
export type ClientOf = (peer: string | undefined, headers: IncomingHttpHeaders) => Result.Result<string | undefined, BadRequest>

/** A header's text: Node joins a header sent twice with commas, as a list header's values are read. */
const headerText = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof value === "string" || value === undefined ? value : value.join(", ")

/**
 * `--trust-proxy`: in front of the routes, a request from a trusted proxy is given its client's address
 * as its `remoteAddress` (IncomingRequest; the proxy's stays its connection's), which the login throttle and
 * the log lines read; one whose relay header cannot be read is answered 400. With no trusted proxy, the
 * peer's address is the client's.
 */
export const behindTrustedProxies = (trusted: TrustedProxies): ClientOf => {
  if (trusted.size === 0) {
    // The peer of most requests is the last one's (a keep-alive connection, a local client): its answer is made once.
    let lastPeer: string | undefined
    let last = Result.succeed<string | undefined>(undefined)
    return (peer) => {
      if (peer !== lastPeer) {
        lastPeer = peer
        last = Result.succeed(peer)
      }
      return last
    }
  }
  return (peer, headers) => {
    if (peer === undefined) return Result.succeed(peer)
    const client = clientAddress(peer, { forwarded: headerText(headers["forwarded"]), xForwardedFor: headerText(headers["x-forwarded-for"]) }, trusted)
    return Result.mapError(client, (malformed) => new BadRequest({ message: malformed.message }))
  }
}
