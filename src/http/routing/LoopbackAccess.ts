import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { IncomingRequest } from "./IncomingRequest.ts"

/**
 * Whether the routes whose access lets the machine itself in without a token (`tokenWithOrLoopback`,
 * src/api/Access.ts: `GET /metrics`) do so: `--metrics-open-on-loopback`.
 */
export class LoopbackAccess extends Context.Service<LoopbackAccess, { readonly openOnLoopback: boolean }>()("app/LoopbackAccess") {
  static readonly layer = (openOnLoopback: boolean) => Layer.succeed(LoopbackAccess)({ openOnLoopback })
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
const isLoopback = (address: string): boolean => address === "::1" || /^(?:::ffff:)?127\./.test(address)

/** Headers by which a proxy says whom it relays a request for (RFC 7239, and the de facto ones). */
const relayedFor = ["forwarded", "x-forwarded-for", "x-real-ip"] as const

/**
 * Whether the request may pass without a token: open on loopback, from a connection of the machine itself
 * (its peer's address, whatever the request's headers say) that no proxy relays: a reverse proxy on the
 * machine serving the gateway to others connects from loopback too, and says so in these headers.
 * `--trust-proxy` does not change this (the client it names is no connection of the machine's): a proxy
 * that passed on its clients' own `Forwarded` would otherwise let anyone claim to be the machine.
 */
export const letInFromLoopback = (context: Context.Context<LoopbackAccess | IncomingRequest>): boolean => {
  if (!Context.get(context, LoopbackAccess).openOnLoopback) return false
  const request = Context.get(context, IncomingRequest)
  const peer = request.source.socket.remoteAddress
  const relayed = relayedFor.some((header) => request.headers[header] !== undefined)
  return peer !== undefined && isLoopback(peer) && !relayed
}
