import type { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { BadRequest } from "../routing/HttpError.ts"

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
