import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { Channel } from "../domain/Channel.ts"
import type { AdapterId, ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
import type { StoreError } from "../domain/StoreError.ts"
import { kindKey, kindValueType } from "../domain/Kind.ts"
import type { Mechanism } from "../domain/Mechanism.ts"
import { anyService, type ChannelSelector, type ServiceSelector } from "../domain/Selector.ts"
import type { Service } from "../domain/Service.ts"
import { type Value, valueEquals } from "../domain/Value.ts"
import type { Adapter, ChannelDescription, Connection, DeviceHost, FirstValue, RefusedService, ServiceDescription } from "./Adapter.ts"
import { DeviceRejected } from "./Adapter.ts"
import type { HomeChange } from "./HomeChange.ts"
import { HomeIndex, type HomeView } from "./HomeIndex.ts"
import type { ChannelRecord, NewChannelRecord } from "./HomeStore.ts"
import { checkedChange, checkedTags, tagsToMend } from "./StoredTags.ts"
import { type TagFeedItem, TagStore } from "./TagStore.ts"
import { isEveryService, wholeHomeServices } from "./WholeHome.ts"

export interface RegistryShape {
  /**
   * Registers an adapter for dispatch and hands it the host through which it brings devices in.
   * When the scope closes, the adapter's devices are disconnected and it is unregistered.
   */
  readonly register: (adapter: Adapter) => Effect.Effect<DeviceHost, never, Scope.Scope>
  readonly adapter: (id: AdapterId) => Option.Option<Adapter>
  /** The ids of the adapters registered now, sorted. */
  readonly adapters: Effect.Effect<ReadonlyArray<AdapterId>>
  /** The services, and the channels, the selectors match on `home`: the whole home unless told (a scoped caller's: ScopedHome). */
  readonly services: (selectors: ReadonlyArray<ServiceSelector>, home?: HomeView) => Effect.Effect<ReadonlyArray<Service>>
  readonly channels: (selectors: ReadonlyArray<ChannelSelector>, home?: HomeView) => Effect.Effect<ReadonlyArray<Channel>>
  /** The in-memory home, for the gateway's own services (Dispatch, Watch) to read inside one synchronous step. */
  readonly index: HomeView
  /** Clients add or remove tags on these ids; their channels may join or leave live selections. */
  readonly retagServices: (ids: ReadonlyArray<ServiceId>, tags: ReadonlyArray<Tag>, add: boolean) => Effect.Effect<void>
  readonly retagChannels: (ids: ReadonlyArray<ChannelId>, tags: ReadonlyArray<Tag>, add: boolean) => Effect.Effect<void>
  /**
   * A device said `value` for `channel` (a fetch answer when the device gives it): `last_seen`, and
   * `updated` if it changed. Callers observe in the order the devices spoke, so the last value observed
   * is the newest. A value of the wrong type for the channel's kind is dropped.
   *
   * Taken when called, on the clock of the fiber running, or outside any (a route's program being made,
   * RouteProgram) on the gateway's: an `Exit` unless a warning is to be logged, so that a read answered at
   * once settles without a step of the runtime.
   */
  readonly observeNow: (channel: ChannelId, value: Value) => Effect.Effect<void>
  /** A value was sent to a setter: its `updated`. Taken when called, as `observeNow` is. */
  readonly markSentNow: (channel: ChannelId) => Effect.Effect<void>
  /** Topology, tag and value changes from now on. */
  readonly changes: Stream.Stream<HomeChange>
}

const noChannels: ReadonlyMap<ChannelId, ChannelRecord> = new Map()

const noValue: ReadonlyArray<Value> = []
const noValues: ReadonlyMap<ChannelId, ReadonlyArray<Value>> = new Map()

/** The first values a device came with, by channel, in the order given. */
const firstValuesById = (firstValues: ReadonlyArray<FirstValue>): ReadonlyMap<ChannelId, ReadonlyArray<Value>> => {
  if (firstValues.length === 0) return noValues
  const values = new Map<ChannelId, Array<Value>>()
  for (const { channel, value } of firstValues) {
    const given = values.get(channel)
    if (given === undefined) values.set(channel, [value])
    else given.push(value)
  }
  return values
}

/** The ids of `channels`, sorted: devices mostly list them in order already, and a sort per device was a share of a large home's start. */
const sortedIds = (channels: ReadonlyArray<ChannelDescription>): ReadonlyArray<ChannelId> => {
  const ids = channels.map((c) => c.id)
  for (let i = 1; i < ids.length; i++) if ((ids[i - 1] as ChannelId) > (ids[i] as ChannelId)) return ids.sort()
  return ids
}

/** The records of the connected channels among `ids`, by id. */
const recordsOf = (index: HomeIndex, ids: ReadonlyArray<ChannelId>): ReadonlyMap<ChannelId, ChannelRecord> => {
  const records = new Map<ChannelId, ChannelRecord>()
  for (const id of ids) {
    const record = index.channel(id)
    if (record !== undefined) records.set(id, record)
  }
  return records
}

/** The devices connected to the gateway, from every adapter, and the stream of their changes. */
export class Registry extends Context.Service<Registry, RegistryShape>()("app/Registry") {
  static readonly layer = Layer.effect(
    Registry,
    Effect.gen(function*() {
      const index = new HomeIndex()
      const tagStore = yield* TagStore
      // Subscribed before the load: a change kept meanwhile is applied again, which is harmless.
      const keptElsewhere = yield* tagStore.changes
      const stored = checkedTags(yield* tagStore.load())
      for (const [id, tags] of stored.service) index.retagService(id, tags, true)
      for (const [id, tags] of stored.channel) index.retagChannel(id, tags, true)
      if (stored.skipped > 0) yield* Effect.logWarning(`${stored.skipped} stored ids or tags are not valid any more and were left out`)

      const adapters = new Map<AdapterId, Adapter>()
      // Unbounded here: the registry must never block a device. Each watcher bounds its own queue.
      const hub = yield* PubSub.unbounded<HomeChange>()
      const gatewayClock = yield* Clock.Clock
      const publish = (change: HomeChange) => PubSub.publish(hub, change).pipe(Effect.asVoid)

      /**
       * Connects or updates one device, with the first values of its getters, in plain code; answers why
       * it cannot be accepted, if it cannot. What changed is added to `changed` (its channels, before and
       * after: a list, not a set of a large home's every channel, so a device given twice in one batch names
       * its channels twice) and `reported` (the values it came with), for the caller to publish.
       */
      const connect = (
        adapter: AdapterId,
        description: ServiceDescription,
        firstValues: ReadonlyArray<FirstValue>,
        now: number,
        changed: Array<ChannelId>,
        reported: Array<HomeChange>
      ): string | undefined => {
        const reason = collision(index, adapter, description)
        if (reason !== undefined) return reason
        const before = index.service(description.id)
        // A device connecting for the first time (all of a home's at its start) has no channels to carry over.
        const previous = before === undefined ? noChannels : recordsOf(index, [...before.getters, ...before.setters])
        const firstValuesOf = firstValuesById(firstValues)
        // One record per channel, built once, with the first value it came with: a home of many devices
        // connects them all at start.
        const records: Array<NewChannelRecord> = []
        // The values that are news, and their channels, side by side: no pair made per getter.
        const news: Array<Value> = []
        const newsOf: Array<ChannelId> = []
        const describe = (c: ChannelDescription, mechanism: Mechanism): void => {
          const key = kindKey(c.kind)
          const old = previous.get(c.id)
          const kept = old !== undefined && old.kindKey === key && old.mechanism === mechanism
          const record: NewChannelRecord = {
            id: c.id,
            service: description.id,
            adapter,
            mechanism,
            kind: c.kind,
            kindKey: key,
            pushMs: mechanism === "setter" ? c.pushMs : 0,
            updated: kept ? old.updated : null,
            lastSeen: kept ? old.lastSeen : now,
            lastValue: kept ? old.lastValue : Option.none(),
            // A device's own tags join the ones clients stored for its ids; those it no longer declares leave.
            declared: index.declaredChannelTags(c.tags)
          }
          // Each as a report (`observe`), taken with the connection: a value of the kind's type, news if it differs.
          for (const value of firstValuesOf.get(c.id) ?? noValue) {
            if (value._tag !== kindValueType(c.kind)) continue
            record.lastSeen = now
            if (Option.isSome(record.lastValue) && valueEquals(record.lastValue.value, value)) continue
            record.lastValue = Option.some(value)
            record.updated = now
            news.push(value)
            newsOf.push(c.id)
          }
          records.push(record)
          changed.push(c.id)
        }
        for (const c of description.getters) describe(c, "getter")
        for (const c of description.setters) describe(c, "setter")
        index.putService(
          {
            id: description.id,
            adapter,
            properties: description.properties,
            getters: sortedIds(description.getters),
            setters: sortedIds(description.setters),
            declared: index.declaredServiceTags(description.tags)
          },
          records
        )
        // The values were taken with the records: reported at the version that holds them.
        const version = index.version
        for (let i = 0; i < news.length; i++) {
          reported.push({ _tag: "ValueReported", channel: newsOf[i] as ChannelId, value: news[i] as Value, at: now, version })
        }
        // Those it keeps are among its records.
        if (previous.size > 0) for (const id of previous.keys()) if (index.channel(id)?.service !== description.id) changed.push(id)
        return undefined
      }

      /** What connecting devices changed, as one publication: their channels first, then the values they came with. */
      const publishConnected = (changed: ReadonlyArray<ChannelId>, reported: ReadonlyArray<HomeChange>) =>
        PubSub.publishAll(hub, [{ _tag: "ChannelsChanged", channels: changed } satisfies HomeChange, ...reported]).pipe(Effect.asVoid)

      const upsert = (adapter: AdapterId, description: ServiceDescription) =>
        Effect.clockWith((clock) => {
          const changed: Array<ChannelId> = []
          const reason = connect(adapter, description, [], clock.currentTimeMillisUnsafe(), changed, [])
          return reason === undefined ? publishConnected(changed, []) : Effect.fail(new DeviceRejected({ reason }))
        })

      // Many devices as one change: a home's start connects thousands, each with the first values of its getters.
      const upsertAll = (adapter: AdapterId, connections: Iterable<Connection>): Effect.Effect<ReadonlyArray<RefusedService>> =>
        Effect.clockWith((clock) => {
          const now = clock.currentTimeMillisUnsafe()
          const changed: Array<ChannelId> = []
          const reported: Array<HomeChange> = []
          const refused: Array<RefusedService> = []
          let any = false
          for (const { service, firstValues } of connections) {
            any = true
            const reason = connect(adapter, service, firstValues, now, changed, reported)
            if (reason !== undefined) refused.push({ id: service.id, reason })
          }
          return any ? Effect.as(publishConnected(changed, reported), refused) : Effect.succeed(refused)
        })

      const remove = (adapter: AdapterId, id: ServiceId) =>
        Effect.suspend(() => {
          const service = index.service(id)
          if (service === undefined || service.adapter !== adapter) return Effect.void
          const removed = index.removeService(id)
          return publish({ _tag: "ChannelsChanged", channels: removed.map((c) => c.id) })
        })

      /**
       * A value observed at `now`, taken before this returns: on every read and report, so plain code, and
       * an effect only for the warning of a value dropped. The hub is unbounded: a publication is taken at once.
       */
      const observeAt = (channel: ChannelId, value: Value, event: boolean, now: number): Effect.Effect<void> => {
        const record = index.channel(channel)
        if (record === undefined) return Exit.void
        // A kind may change under a value in flight (a reload): such a value is never the channel's.
        const expected = kindValueType(record.kind)
        if (value._tag !== expected) {
          return Effect.logWarning(`${channel} takes ${expected} values: a ${value._tag} reported for it was dropped`)
        }
        index.markSeen(channel, now)
        if (!event && Option.isSome(record.lastValue) && valueEquals(record.lastValue.value, value)) return Exit.void
        index.markValue(channel, value, now)
        PubSub.publishUnsafe(hub, { _tag: "ValueReported", channel, value, at: now, version: index.version })
        return Exit.void
      }

      const observe = (channel: ChannelId, value: Value, event = false) =>
        Effect.clockWith((clock) => observeAt(channel, value, event, clock.currentTimeMillisUnsafe()))

      /**
       * The time now on the clock of the fiber running (an adapter's method, a step of a device's fiber), or,
       * outside any (a route's program being made), on the clock the gateway was built with.
       */
      const now = (): number => (Fiber.getCurrent()?.getRef(Clock.Clock) ?? gatewayClock).currentTimeMillisUnsafe()

      /** `observe`, taken before this returns: an `Exit`, unless there is a warning to log. */
      const observeNow = (channel: ChannelId, value: Value): Effect.Effect<void> => observeAt(channel, value, false, now())

      const retagServices = (ids: ReadonlyArray<ServiceId>, tags: ReadonlyArray<Tag>, add: boolean) =>
        Effect.suspend(() => {
          for (const id of ids) index.retagService(id, tags, add)
          // A service's tags decide which channels `service_tags` selects.
          const channels = ids.flatMap((id) => {
            const service = index.service(id)
            return service === undefined ? [] : [...service.getters, ...service.setters]
          })
          return publish({ _tag: "ChannelsChanged", channels })
        })

      const retagChannels = (ids: ReadonlyArray<ChannelId>, tags: ReadonlyArray<Tag>, add: boolean) =>
        Effect.suspend(() => {
          for (const id of ids) index.retagChannel(id, tags, add)
          return publish({ _tag: "ChannelsChanged", channels: ids })
        })

      const register = (adapter: Adapter) =>
        Effect.gen(function*() {
          adapters.set(adapter.id, adapter)
          // Its devices leave as one change: a large home's 10,000 were a step and a publication each at shutdown.
          yield* Effect.addFinalizer(() =>
            Effect.suspend(() => {
              adapters.delete(adapter.id)
              const owned = index.selectServices([anyService]).filter((s) => s.adapter === adapter.id)
              if (owned.length === 0) return Effect.void
              const channels: Array<ChannelId> = []
              for (const service of owned) for (const channel of index.removeService(service.id)) channels.push(channel.id)
              return publish({ _tag: "ChannelsChanged", channels })
            })
          )
          const ownReport = (channel: ChannelId, value: Value, event: boolean) =>
            Effect.suspend(() => index.channel(channel)?.adapter === adapter.id ? observe(channel, value, event) : Effect.void)
          const host: DeviceHost = {
            upsertService: (description) => upsert(adapter.id, description),
            upsertServices: (connections) => upsertAll(adapter.id, connections),
            removeService: (id) => remove(adapter.id, id),
            reportValue: (channel, value) => ownReport(channel, value, false),
            reportValueNow: (channel, value) => index.channel(channel)?.adapter === adapter.id ? observeNow(channel, value) : Exit.void,
            reportEvent: (channel, value) => ownReport(channel, value, true)
          }
          return host
        })

      // What another gateway on the same store changed reaches this one's index and watchers as its own would.
      const followStore = (item: TagFeedItem): Effect.Effect<void, StoreError> =>
        "reload" in item
          ? Effect.flatMap(tagStore.load(), (loaded) => {
            const kept = checkedTags(loaded)
            return Effect.asVoid(Effect.all([
              Effect.forEach(tagsToMend(index.clientServiceTags(), kept.service), ({ id, gone, come }) =>
                Effect.andThen(retagServices([id], gone, false), retagServices([id], come, true))),
              Effect.forEach(tagsToMend(index.clientChannelTags(), kept.channel), ({ id, gone, come }) =>
                Effect.andThen(retagChannels([id], gone, false), retagChannels([id], come, true)))
            ]))
          })
          : Effect.suspend(() => {
            const { services, channels, tags, added } = checkedChange(item)
            return Effect.andThen(retagServices(services, tags, added), retagChannels(channels, tags, added))
          })
      yield* Effect.forkScoped(Stream.runForEach(keptElsewhere, (item) =>
        followStore(item).pipe(
          Effect.catch((error) => Effect.logWarning(`tags changed by another gateway could not be loaded: ${error.message}`))
        )))

      const everyService = wholeHomeServices(index)
      return Registry.of({
        register,
        adapter: (id) => Option.fromUndefinedOr(adapters.get(id)),
        adapters: Effect.sync(() => [...adapters.keys()].sort()),
        services: (selectors, home: HomeView = index) =>
          Effect.sync(() =>
            home === index && isEveryService(selectors) ? everyService() : home.selectServices(selectors).map((s) => home.toService(s))
          ),
        channels: (selectors, home: HomeView = index) => Effect.sync(() => home.selectChannels(selectors).map((c) => home.toChannel(c))),
        index,
        retagServices,
        retagChannels,
        observeNow,
        markSentNow: (channel) => {
          index.markSent(channel, now())
          return Exit.void
        },
        changes: Stream.fromPubSub(hub)
      })
    })
  )
}

/** Up to how many channels a device's ids are compared with each other rather than gathered in a set. */
const fewChannels = 16

/** Whether the id of `channels[i]` is an earlier channel's. */
const appearsBefore = (channels: ReadonlyArray<ChannelDescription>, i: number): boolean => {
  const id = channels[i]?.id
  for (let j = 0; j < i; j++) if (channels[j]?.id === id) return true
  return false
}

/** Why a description cannot be accepted: an id used twice, or a channel id owned by another device. */
const collision = (index: HomeIndex, adapter: AdapterId, description: ServiceDescription): string | undefined => {
  const existing = index.service(description.id)
  if (existing !== undefined && existing.adapter !== adapter) {
    return `service ${description.id} is already connected through adapter ${existing.adapter}`
  }
  const channels = description.getters.concat(description.setters)
  // A device's few channels are compared with each other: a set made per device was a share of a large home's start.
  const seen = channels.length > fewChannels ? new Set<ChannelId>() : undefined
  for (let i = 0; i < channels.length; i++) {
    const id = (channels[i] as ChannelDescription).id
    if (seen === undefined ? appearsBefore(channels, i) : seen.has(id)) return `channel ${id} appears twice in service ${description.id}`
    seen?.add(id)
    const owner = index.channel(id)
    if (owner !== undefined && owner.service !== description.id) return `channel ${id} already belongs to service ${owner.service}`
  }
  return undefined
}
