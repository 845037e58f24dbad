import * as Schema from "effect/Schema"
import { Constraint, empty, exactly } from "./Constraint.ts"
import { ChannelId, ServiceId, Tag } from "./Identifier.ts"
import { Kind } from "./Kind.ts"
import { Mechanism } from "./Mechanism.ts"

/**
 * Selects channels. Every field must hold (AND); `tags` and `serviceTags` mean "carries all of these".
 * Both vocabularies' getter/setter and input/output selectors are this one shape.
 */
export const ChannelSelector = Schema.Struct({
  id: Constraint(ChannelId),
  service: Constraint(ServiceId),
  mechanism: Constraint(Mechanism),
  kind: Constraint(Kind),
  tags: Schema.Array(Tag),
  serviceTags: Schema.Array(Tag)
})
export type ChannelSelector = typeof ChannelSelector.Type

/**
 * Selects services. `getters` and `setters`: for each listed selector, the service must have at least
 * one channel of that mechanism that matches it.
 */
export const ServiceSelector = Schema.Struct({
  id: Constraint(ServiceId),
  tags: Schema.Array(Tag),
  getters: Schema.Array(ChannelSelector),
  setters: Schema.Array(ChannelSelector)
})
export type ServiceSelector = typeof ServiceSelector.Type

/** The selector that matches every channel (`{}`); spread over it to build others. */
export const anyChannel: ChannelSelector = {
  id: empty,
  service: empty,
  mechanism: empty,
  kind: empty,
  tags: [],
  serviceTags: []
}

/** The selector that matches every service (`{}`). */
export const anyService: ServiceSelector = { id: empty, tags: [], getters: [], setters: [] }

export const channelSelector = (fields: Partial<ChannelSelector>): ChannelSelector => ({ ...anyChannel, ...fields })
export const serviceSelector = (fields: Partial<ServiceSelector>): ServiceSelector => ({ ...anyService, ...fields })

/** The selector of every getter, and of every setter: what a read with no body means. */
export const everyGetter: ChannelSelector = channelSelector({ mechanism: exactly("getter") })
export const everySetter: ChannelSelector = channelSelector({ mechanism: exactly("setter") })
