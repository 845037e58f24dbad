import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as NetAddress from "effect/net/NetAddress"
import { forwardedHops, type MalformedRelay, xForwardedForHops } from "./RelayHeaders.ts"

/**
 * Who a request comes from, behind the proxies of `--trust-proxy` (docs/security.md): for a connection
 * from a trusted proxy, the nearest hop its relay header names that is not itself a trusted proxy, read
 * right to left from `Forwarded` if present, else from `X-Forwarded-For`; for any other connection, its
 * peer. Pure: the step that applies it to each request is TrustedProxies.ts.
 */

/** An IP address as the gateway compares and logs it: IPv6 compressed and lower case, an IPv4-mapped one as IPv4. */
export const canonicalAddress = (text: string): Option.Option<string> =>
  Option.map(Result.getSuccess(NetAddress.ipFromString(text)), (address) => NetAddress.formatIp(NetAddress.toCanonical(address)))

/** The proxies whose relay headers are believed, by canonical address. */
export type TrustedProxies = ReadonlySet<string>

/** `--trust-proxy`'s value, `ADDRESS[,ADDRESS…]`: none if an entry is not an IP address. */
export const trustedProxiesOf = (list: string): Option.Option<TrustedProxies> =>
  Option.map(Option.all(list.split(",").map((entry) => canonicalAddress(entry.trim()))), (addresses) => new Set(addresses))

/** What the relay headers of a request say, as received (absent: not sent). */
export interface RelayHeaders {
  readonly forwarded: string | undefined
  readonly xForwardedFor: string | undefined
}

/**
 * The nearest hop that is not a trusted proxy, of the `hops` a header lists (the farthest first) and the
 * connection's `peer` after them; when every hop is one, the farthest: a proxy's request for itself.
 */
export const nearestUntrusted = (hops: ReadonlyArray<string>, peer: string, trusted: TrustedProxies): string =>
  [...hops, peer].findLast((hop) => !trusted.has(hop)) ?? hops[0] ?? peer

/**
 * The client's address of a request whose connection comes from `peer`: `peer` itself unless it is a
 * trusted proxy, else what its relay headers say (none: the proxy's own request). Fails when a trusted
 * proxy sent a header that cannot be read: what it meant cannot be known.
 */
export const clientAddress = (peer: string, headers: RelayHeaders, trusted: TrustedProxies): Result.Result<string, MalformedRelay> => {
  const from = Option.getOrElse(canonicalAddress(peer), () => peer)
  if (!trusted.has(from)) return Result.succeed(peer)
  const relayed = headers.forwarded !== undefined
    ? forwardedHops(headers.forwarded)
    : headers.xForwardedFor !== undefined
    ? xForwardedForHops(headers.xForwardedFor)
    : Result.succeed([])
  return Result.map(relayed, (hops) => nearestUntrusted(hops, from, trusted))
}
