/**
 * Checked by the type checker (`npm run typecheck`, part of `npm test`), never run: "only the Registry
 * changes the home" holds for everything that reads the home through a HomeView. Each line of the first
 * function must stay a type error; the second makes the same changes, with the same values (typed once,
 * below), where they are allowed (the Registry's HomeIndex, a writable copy of a record), so that each
 * of those errors is the HomeView's doing, not a mistyped call or value that would fail anyway.
 */
import { Option, type Types } from "effect"
import type { Timestamp } from "../../src/domain/Channel.ts"
import type { ChannelId, ServiceId } from "../../src/domain/Identifier.ts"
import type { Kind } from "../../src/domain/Kind.ts"
import type { Value } from "../../src/domain/Value.ts"
import type { HomeIndex, HomeView } from "../../src/gateway/HomeIndex.ts"
import type { ChannelRecord } from "../../src/gateway/HomeStore.ts"

const at: Timestamp = 1
const reported: Value = { _tag: "OnOff", state: "On" }
const noValue: Option.Option<Value> = Option.none()
const kind: Kind = { _tag: "Builtin", name: "OnOff" }

export const readersCannotChangeTheHome = (home: HomeView, channel: ChannelId, service: ServiceId): void => {
  const record = home.channel(channel)
  if (record !== undefined) {
    // @ts-expect-error a channel record read through a HomeView is read-only
    record.updated = at
    // @ts-expect-error a channel record read through a HomeView is read-only
    record.lastSeen = at
    // @ts-expect-error a channel record read through a HomeView is read-only
    record.lastValue = noValue
    // @ts-expect-error a channel record read through a HomeView is read-only
    record.kind = kind
  }
  const owner = home.service(service)
  if (owner !== undefined) {
    // @ts-expect-error a service record read through a HomeView is read-only
    owner.getters.push(channel)
  }
  // @ts-expect-error a HomeView cannot report what a device said
  home.markValue(channel, reported, at)
  // @ts-expect-error a HomeView cannot connect a service
  home.putService
  // @ts-expect-error a HomeView cannot retag
  home.retagChannel(channel, [], true)
}

/** The same changes, where they are allowed: these lines must type-check. */
export const theSameChangesAreWellTyped = (home: HomeIndex, channel: ChannelId, service: ServiceId): void => {
  const record = home.channel(channel)
  if (record !== undefined) {
    const writable: Types.Mutable<ChannelRecord> = { ...record }
    writable.updated = at
    writable.lastSeen = at
    writable.lastValue = noValue
    writable.kind = kind
  }
  const owner = home.service(service)
  if (owner !== undefined) {
    const getters: Array<ChannelId> = [...owner.getters]
    getters.push(channel)
  }
  home.markValue(channel, reported, at)
  void home.putService
  home.retagChannel(channel, [], true)
}
