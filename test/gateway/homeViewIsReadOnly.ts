/**
 * Checked by the type checker (`npm run typecheck`, part of `npm test`), never run: "only the Registry
 * changes the home" holds for everything that reads the home through a HomeView. Each line below must
 * stay a type error.
 */
import { Option } from "effect"
import type { ChannelId, ServiceId } from "../../src/domain/Identifier.ts"
import type { HomeView } from "../../src/gateway/HomeIndex.ts"

export const readersCannotChangeTheHome = (home: HomeView, channel: ChannelId, service: ServiceId): void => {
  const record = home.channel(channel)
  if (record !== undefined) {
    // @ts-expect-error a channel record read through a HomeView is read-only
    record.updated = 1
    // @ts-expect-error a channel record read through a HomeView is read-only
    record.lastSeen = 1
    // @ts-expect-error a channel record read through a HomeView is read-only
    record.lastValue = Option.none()
    // @ts-expect-error a channel record read through a HomeView is read-only
    record.kind = { _tag: "Builtin", name: "OnOff" }
  }
  const owner = home.service(service)
  if (owner !== undefined) {
    // @ts-expect-error a service record read through a HomeView is read-only
    owner.getters.push(channel)
  }
  // @ts-expect-error a HomeView cannot report what a device said
  home.markValue(channel, { _tag: "OnOff", value: "On" }, 1)
  // @ts-expect-error a HomeView cannot connect a service
  home.putService
  // @ts-expect-error a HomeView cannot retag
  home.retagChannel(channel, [], true)
}
