import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Result from "effect/Result"
import type { AdapterId, ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
import type { Kind } from "../domain/Kind.ts"
import type { User } from "../domain/User.ts"
import type { Value } from "../domain/Value.ts"
import type { ValueFilter } from "../domain/Watch.ts"

/** What an adapter says about one channel of a device it brings in. */
export interface ChannelDescription {
  readonly id: ChannelId
  readonly kind: Kind
  /** Tags the device arrives with; merged with the tags clients stored for this id. */
  readonly tags: ReadonlyArray<Tag>
  /** Setters: least interval in ms between values the device accepts (0: any rate). */
  readonly pushMs: number
}

/** What an adapter says about one device. */
export interface ServiceDescription {
  readonly id: ServiceId
  readonly tags: ReadonlyArray<Tag>
  readonly properties: Readonly<Record<string, string>>
  readonly getters: ReadonlyArray<ChannelDescription>
  readonly setters: ReadonlyArray<ChannelDescription>
}

/** Who a fetch or send is made for. */
export interface CallContext {
  readonly user: Option.Option<User>
}

/** A device's answer for one channel: the result, or a message saying why the device failed. */
export interface Reply<A> {
  /** The answer, given when this effect runs: for a device that answers after waiting. */
  (channel: ChannelId, result: Result.Result<A, string>): Effect.Effect<void>
  /**
   * The answer, given now, while the adapter's method runs (before it returns): for a device whose state
   * is in memory. A call that answers every channel so and returns an `Exit` (`Effect.void`) is over when
   * the method returns: the gateway starts no fiber for it and sets it no timer. An answer given so after
   * the method returned is too late to be taken, and is ignored: answer later through the effect.
   */
  readonly now: (channel: ChannelId, result: Result.Result<A, string>) => void
}

/**
 * A bridge to a family of devices. The gateway calls each adapter at most once per request, with
 * every channel of that adapter the request touches. The adapter answers channel by channel through
 * `reply`, so that a slow or hung device does not hold back the answers of the others: when the
 * gateway's device timeout ends the call, channels with no reply yet become per-channel errors. What a
 * device knows at once it answers with `reply.now`, so that a read from memory costs no fiber.
 */
export interface Adapter {
  readonly id: AdapterId
  /** Read the latest value of getters (`None`: no value yet). */
  readonly fetch: (
    channels: ReadonlyArray<ChannelId>,
    context: CallContext,
    reply: Reply<Option.Option<Value>>
  ) => Effect.Effect<void>
  /**
   * Send values to setters. The gateway checked every value's type against the kind when the request
   * came; the home may change while the write is in flight, so an adapter checks again when it applies
   * a value, and answers a failure for a setter it no longer has or whose kind no longer takes the value.
   */
  readonly send: (
    writes: ReadonlyArray<{ readonly channel: ChannelId; readonly value: Value }>,
    context: CallContext,
    reply: Reply<void>
  ) => Effect.Effect<void>
  /** Why the device refuses to be watched with `filter`, if it does (`None`: it accepts). */
  readonly refusesWatch: (channel: ChannelId, filter: ValueFilter) => Option.Option<string>
}

/** A getter's value as its device connects with it. */
export interface FirstValue {
  readonly channel: ChannelId
  readonly value: Value
}

/** A device to connect (or update), with the values its getters hold as it does. */
export interface Connection {
  readonly service: ServiceDescription
  readonly firstValues: ReadonlyArray<FirstValue>
}

/** A device the gateway did not accept, and why (as `DeviceRejected` says it). */
export interface RefusedService {
  readonly id: ServiceId
  readonly reason: string
}

/**
 * What the gateway offers an adapter: the way to bring devices in, update them, take them out and
 * report what they say. Given to an adapter when it is registered.
 */
export interface DeviceHost {
  /** Connect a device, or update it if it is connected (same id): channels are added, changed or removed. */
  readonly upsertService: (service: ServiceDescription) => Effect.Effect<void, DeviceRejected>
  /**
   * Connect or update many devices as one change (a home's start or reload): each as `upsertService`
   * would, then each first value as `reportValue` would, but watchers are told in one publication (the
   * channels, then the values). Answers the devices refused; the others are connected. The connections
   * are taken one at a time, so they may be made as they are asked for.
   */
  readonly upsertServices: (connections: Iterable<Connection>) => Effect.Effect<ReadonlyArray<RefusedService>>
  /** Disconnect a device; unknown ids are ignored. */
  readonly removeService: (id: ServiceId) => Effect.Effect<void>
  /** A getter has a new value (a setter's `drives` getter too); sets `updated`/`last_seen` and notifies watchers. */
  readonly reportValue: (channel: ChannelId, value: Value) => Effect.Effect<void>
  /**
   * `reportValue`, taken before this returns (in an adapter's method, a step of a device's fiber; on the
   * clock of the fiber running, or of the gateway outside any): it then returns an `Exit`, and a device that sets a value and reports it
   * in one synchronous step needs no lock to keep its reports in order, nor a fiber to answer a write at
   * once (`Reply.now`). What it returns otherwise (a warning of a value dropped) is still to be run.
   */
  readonly reportValueNow: (channel: ChannelId, value: Value) => Effect.Effect<void>
  /**
   * Something happened on a getter (a button pressed): unlike a state, each report is news, equal to
   * the last one or not. Sets `updated`/`last_seen`, becomes the getter's last value, and reaches
   * watchers every time (docs/reference.md §7).
   */
  readonly reportEvent: (channel: ChannelId, value: Value) => Effect.Effect<void>
}


/** A device description the gateway cannot accept (e.g. a channel id already used by another device). */
export class DeviceRejected extends Data.TaggedError("DeviceRejected")<{ readonly reason: string }> {
  override get message(): string {
    return this.reason
  }
}
