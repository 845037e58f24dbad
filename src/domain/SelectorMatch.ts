import type { Channel } from "./Channel.ts"
import { same, satisfies } from "./Constraint.ts"
import type { Tag } from "./Identifier.ts"
import { kindEquals } from "./Kind.ts"
import type { ChannelSelector, ServiceSelector } from "./Selector.ts"
import type { Service } from "./Service.ts"

/**
 * The meaning of selectors, written as plainly as possible. The gateway answers queries from indexes;
 * these functions are the reference those answers are checked against.
 */

const carriesAll = (carried: ReadonlyArray<Tag>, wanted: ReadonlyArray<Tag>): boolean =>
  wanted.every((tag) => carried.includes(tag))

export const channelMatches = (
  selector: ChannelSelector,
  channel: Channel,
  serviceTags: ReadonlyArray<Tag>
): boolean =>
  satisfies(selector.id, channel.id, same) &&
  satisfies(selector.service, channel.service, same) &&
  satisfies(selector.mechanism, channel.mechanism, same) &&
  satisfies(selector.kind, channel.kind, kindEquals) &&
  carriesAll(channel.tags, selector.tags) &&
  carriesAll(serviceTags, selector.serviceTags)

export const serviceMatches = (selector: ServiceSelector, service: Service): boolean =>
  satisfies(selector.id, service.id, same) &&
  carriesAll(service.tags, selector.tags) &&
  selector.getters.every((g) => service.getters.some((c) => channelMatches(g, c, service.tags))) &&
  selector.setters.every((s) => service.setters.some((c) => channelMatches(s, c, service.tags)))

/** OR over an array: a thing matches if it matches any selector; `[]` matches nothing. */
export const anyChannelMatches = (
  selectors: ReadonlyArray<ChannelSelector>,
  channel: Channel,
  serviceTags: ReadonlyArray<Tag>
): boolean => selectors.some((s) => channelMatches(s, channel, serviceTags))

export const anyServiceMatches = (selectors: ReadonlyArray<ServiceSelector>, service: Service): boolean =>
  selectors.some((s) => serviceMatches(s, service))
