import type { Timestamp } from "../domain/Channel.ts"
import type { ChannelId } from "../domain/Identifier.ts"
import type { Value } from "../domain/Value.ts"

/**
 * What the registry tells its listeners (the watch service). `ChannelsChanged` names channels that
 * were connected, disconnected, updated or re-tagged (their own tags or their service's): whoever keeps
 * a live selection re-checks exactly those. A `ValueReported` carries the home's `version` just after the
 * value was taken: a watcher handed the value the home held at a later version knows it is no newer.
 */
export type HomeChange =
  | { readonly _tag: "ChannelsChanged"; readonly channels: ReadonlyArray<ChannelId> }
  | { readonly _tag: "ValueReported"; readonly channel: ChannelId; readonly value: Value; readonly at: Timestamp; readonly version: number }
