import * as Schema from "effect/Schema"
import { ChannelError } from "./ChannelError.ts"
import { ChannelId } from "./Identifier.ts"
import { Range } from "./Range.ts"
import { ChannelSelector } from "./Selector.ts"
import { Value } from "./Value.ts"

/** Which values of a watched channel are delivered. */
export const ValueFilter = Schema.TaggedUnion({
  Never: {},
  Always: {},
  InRange: { range: Range }
})
export type ValueFilter = typeof ValueFilter.Type

/** One part of a watch registration: the live set of channels `selector` matches. */
export const WatchTarget = Schema.Struct({
  selector: ChannelSelector,
  values: ValueFilter,
  /** Announce channels joining and leaving the watched set. */
  topology: Schema.Boolean,
  /**
   * Send a channel's current value (the last the gateway holds) when it comes to be watched for values by
   * this target, as the value event a change would give: an extension of this gateway (docs/reference.md §7).
   */
  initialValues: Schema.Boolean
})
export type WatchTarget = typeof WatchTarget.Type

/** A registration: the union of its targets. Replaced whole by the next one on the same socket. */
export const WatchRegistration = Schema.Array(WatchTarget)
export type WatchRegistration = typeof WatchRegistration.Type

export const WatchEvent = Schema.TaggedUnion({
  ChannelAdded: { channel: ChannelId },
  ChannelRemoved: { channel: ChannelId },
  ValueChanged: { channel: ChannelId, value: Value },
  /** The device refused to be watched this way (e.g. `Always` on a thresholds-only sensor). */
  WatchRefused: { channel: ChannelId, error: ChannelError }
})
export type WatchEvent = typeof WatchEvent.Type
