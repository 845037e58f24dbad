import * as Stream from "effect/Stream"
import type { ChannelId } from "../domain/Identifier.ts"
import type { ChannelSelector } from "../domain/Selector.ts"
import type { Value } from "../domain/Value.ts"
import type { WatchRegistration } from "../domain/Watch.ts"
import type { ClientWatchEvent } from "./WatchStream.ts"

/**
 * The current value of every getter a watch matches, as a map kept up to date, as Home Assistant's
 * `subscribeEntities` gives its entities: the current values on registration, then each change; after
 * a gap, the channels that left are dropped and the current values come again (`Resynced` needs no more).
 */

/** The watch a value map is kept from: every value of the getters `selectors` match, current ones first. */
export const valueRegistration = (selectors: ReadonlyArray<ChannelSelector>): WatchRegistration =>
  selectors.map((selector) => ({ selector, values: { _tag: "Always" }, topology: true, initialValues: true }))

/** The map after each event that changed it. */
export const valueMaps = <E>(events: Stream.Stream<ClientWatchEvent, E>): Stream.Stream<ReadonlyMap<ChannelId, Value>, E> =>
  Stream.suspend(() => {
    const values = new Map<ChannelId, Value>()
    return Stream.flatMap(events, (event) => {
      const changed = event._tag === "ValueChanged" ? Boolean(values.set(event.channel, event.value)) : event._tag === "ChannelRemoved" && values.delete(event.channel)
      return changed ? Stream.make(new Map(values)) : Stream.empty
    })
  })
