import * as Context from "effect/Context"
import type { IncomingHttpHeaders, IncomingMessage } from "node:http"
import type { QueryParams } from "./Query.ts"

/**
 * A request as the gateway reads it, from Node's `IncomingMessage` directly (the request handler builds
 * it once, RequestHandler): what the steps before a route learned of it (its path and query, the client a
 * trusted proxy relays it for), and Node's request itself for its connection. Handlers find it in their context.
 */
export interface IncomingRequestShape {
  /** Node's request: its socket, and the key of its body read first (BodiesReadFirst). */
  readonly source: IncomingMessage
  readonly method: string
  /** The path of its URL, without its query. */
  readonly path: string
  readonly query: QueryParams
  readonly headers: IncomingHttpHeaders
  /** Whether it came as an upgrade request (Node's `upgrade` event), which the platform's upgrade handler answers. */
  readonly upgrading: boolean
  /** The client's address: the connection's peer, or the client a trusted proxy relays the request for (`--trust-proxy`). */
  readonly remoteAddress: string | undefined
}

export class IncomingRequest extends Context.Service<IncomingRequest, IncomingRequestShape>()("app/IncomingRequest") {}
