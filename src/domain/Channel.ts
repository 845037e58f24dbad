import * as Schema from "effect/Schema"
import { AdapterId, ChannelId, ServiceId, Tag } from "./Identifier.ts"
import { Kind } from "./Kind.ts"
import { Mechanism } from "./Mechanism.ts"

/** Milliseconds since the epoch, UTC. */
export const Timestamp = Schema.Int
export type Timestamp = typeof Timestamp.Type

/** A channel as clients see it (docs/reference.md §5), with its tags sorted. */
export const Channel = Schema.Struct({
  id: ChannelId,
  service: ServiceId,
  adapter: AdapterId,
  mechanism: Mechanism,
  kind: Kind,
  tags: Schema.Array(Tag),
  /** When a getter's value last changed, or a value was last sent to a setter. */
  updated: Schema.NullOr(Timestamp),
  /** When the device last reported anything for this channel. */
  lastSeen: Schema.NullOr(Timestamp),
  /** Setters: the least interval in ms at which the device accepts values (0: any rate). Getters: 0. */
  pushMs: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
})
export type Channel = typeof Channel.Type
