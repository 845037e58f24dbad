import * as Context from "effect/Context"
import type { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { defaultGatewayOptions } from "../../GatewayOptions.ts"
import { BadRequest } from "../routing/HttpError.ts"

/**
 * Request bodies (and WebSocket frames) over this many bytes are refused with 413 (`--max-body-bytes`):
 * the server provides it to the routes it serves (Server.ts), and a route served without it gets the default.
 */
export const MaxBodyBytes = Context.Reference<number>("app/MaxBodyBytes", { defaultValue: () => defaultGatewayOptions.maxBodyBytes })

/**
 * Explicit bounds on one request, beyond the body size: a request may name at most this many
 * selectors (nested channel selectors of service selectors count) and this many tags. They keep one
 * request's work bounded whatever its body holds.
 */
export const maxSelectorsPerRequest = 1_000
export const maxTagsPerRequest = 100
/**
 * How deep a body's arrays and objects may nest. Far more than any request needs (a Json value may
 * itself nest 256 levels), and bounded so that nothing that walks a body can run out of stack.
 */
export const maxBodyDepth = 512

const countService = (s: ServiceSelector): number => 1 + s.getters.length + s.setters.length

/** Counts what a canonical request names, refusing it with a 400 past the limits. */
export const checkSelectors = (
  selectors: ReadonlyArray<ServiceSelector | ChannelSelector>
): BadRequest | undefined => {
  const count = selectors.reduce((n, s) => n + ("getters" in s ? countService(s) : 1), 0)
  return count > maxSelectorsPerRequest
    ? new BadRequest({ message: `body: ${count} selectors, at most ${maxSelectorsPerRequest} per request` })
    : undefined
}

export const checkTags = (tags: ReadonlyArray<unknown>): BadRequest | undefined =>
  tags.length > maxTagsPerRequest
    ? new BadRequest({ message: `body.tags: ${tags.length} tags, at most ${maxTagsPerRequest} per request` })
    : undefined
