import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import type { ChannelId, ServiceId } from "../../domain/Identifier.ts"
import type { Value } from "../../domain/Value.ts"
import type { Adapter, DeviceHost, Reply } from "../../gateway/Adapter.ts"
import { makeAskedStates } from "./AskedStates.ts"
import { type BridgeInfo, readBridgeDevices, readBridgeInfo, readOnline, readState, readTopic } from "./BridgeMessages.ts"
import { bridgeService, bridgeServiceId, permitJoinRequest, permitJoinSetter } from "./BridgeService.ts"
import { mapDevice, type MappedDevice } from "./ExposeMapping.ts"
import { followConnection, startMqttAdapter } from "./ConnectionFollower.ts"
import { screenDevices } from "./DeviceScreening.ts"
import { type MqttClientSettings, openMqttConnection } from "./MqttConnection.ts"
import { type Point, type State, zigbee2mqttAdapterId } from "./Point.ts"
import { makeShownServices, publishReply, type WantedService } from "./ShownServices.ts"

export interface Zigbee2MqttSettings extends MqttClientSettings {
  /** Zigbee2MQTT's `mqtt.base_topic` (default `zigbee2mqtt`). */
  readonly baseTopic: string
}

/**
 * A fetch waiting for a device to answer its `/get`. Completing `answer` runs the waiting fetch at
 * once, inside the completion (Effect resumes a fiber waiting on a Deferred there), so its reply is
 * taken before the answering state's report and before any later message: an older answer can never
 * overwrite a newer state.
 */
interface Waiter {
  readonly point: Point
  readonly answer: Deferred.Deferred<Value>
}

/**
 * The Zigbee2MQTT adapter: follows a bridge's documented MQTT interface on a broker and shows its
 * devices as services. One fiber reads the connection's events in order and keeps the picture
 * (devices, availability, latest states); fetch and send read that picture and publish.
 */
const connect = Effect.fnUntraced(function*(
  register: (adapter: Adapter) => Effect.Effect<DeviceHost, never, Scope.Scope>,
  settings: Zigbee2MqttSettings
) {
  const base = settings.baseTopic
  const connection = yield* openMqttConnection(settings, [`${base}/#`], "the Zigbee2MQTT connection")
  const brokerAway = () => `the MQTT broker at ${connection.where} is not reachable`

  /** The latest `bridge/devices`, by IEEE address. */
  let devices = new Map<string, MappedDevice>()
  const byName = new Map<string, string>()
  const channels = new Map<ChannelId, { readonly device: MappedDevice; readonly point: Point }>()
  const states = new Map<string, State>()
  const availability = new Map<string, boolean>()
  /** What `bridge/state` last said; unknown until it says it. */
  let bridgeOnline: boolean | undefined 
  /** The latest `bridge/info`: the bridge is shown as a service once it is known. */
  let info: Option.Option<BridgeInfo> = Option.none()
  const waiters = new Map<string, Set<Waiter>>()
  /** The `/get`s on their way to an answer, this gateway's and other replicas': asked again only once answered or late. */
  const asked = makeAskedStates()
  /** What the log said of the devices refused in the latest `bridge/devices`: each is said once, not at every list. */
  let refused: ReadonlySet<string> = new Set()

  const adapter: Adapter = {
    id: zigbee2mqttAdapterId,
    // What the devices said is in memory: it is answered at once (`reply.now`), and only what none said
    // yet is asked of its device.
    fetch: (ids, _context, reply) => {
      const asks = new Map<MappedDevice, Array<{ readonly channel: ChannelId; readonly point: Point }>>()
      for (const channel of ids) {
        const entry = channels.get(channel)
        if (entry === undefined) reply.now(channel, Result.fail(`Zigbee2MQTT has no getter ${channel}`))
        else if (!connection.isConnected()) reply.now(channel, Result.fail(brokerAway()))
        else {
          const known = Option.flatMap(Option.fromUndefinedOr(states.get(entry.device.friendlyName)), entry.point.read)
          if (Option.isSome(known) || !entry.point.gettable) reply.now(channel, Result.succeed(known))
          else asks.set(entry.device, [...(asks.get(entry.device) ?? []), { channel, point: entry.point }])
        }
      }
      return asks.size === 0
        ? Effect.void
        : Effect.forEach(asks, ([device, wanted]) => ask(device, wanted, reply), { concurrency: "unbounded", discard: true })
    },
    send: (writes, _context, reply) =>
      Effect.gen(function*() {
        const perDevice = new Map<MappedDevice, Array<{ readonly channel: ChannelId; readonly fragment: State }>>()
        for (const { channel, value } of writes) {
          const entry = channels.get(channel)
          if (channel === permitJoinSetter && Option.isSome(info)) {
            yield* permitJoin(value, reply)
          } else if (entry === undefined || Option.isNone(entry.point.setter)) {
            yield* reply(channel, Result.fail(`Zigbee2MQTT has no setter ${channel}`))
          } else {
            const fragment = entry.point.write(value)
            if (Result.isFailure(fragment)) yield* reply(channel, Result.fail(fragment.failure))
            else perDevice.set(entry.device, [...(perDevice.get(entry.device) ?? []), { channel, fragment: fragment.success }])
          }
        }
        // One `/set` per device, holding every property written to it.
        yield* Effect.forEach(perDevice, ([device, parts]) =>
          publishReply(connection, `${base}/${device.friendlyName}/set`, JSON.stringify(Object.assign({}, ...parts.map((p) => p.fragment)))).pipe(
            Effect.flatMap((result) => Effect.forEach(parts, ({ channel }) => reply(channel, result), { discard: true }))
          ), { concurrency: "unbounded", discard: true })
      }),
    refusesWatch: () => Option.none()
  }

  /** Opens the network to joining for the Duration `value` (0 closes it), with `bridge/request/permit_join`. */
  const permitJoin = (value: Value, reply: Reply<void>) => {
    const request = permitJoinRequest(value)
    if (Result.isFailure(request)) return reply(permitJoinSetter, Result.fail(request.failure))
    if (bridgeOnline === false) return reply(permitJoinSetter, Result.fail("the Zigbee2MQTT bridge is offline"))
    return publishReply(connection, `${base}/bridge/request/permit_join`, request.success).pipe(
      Effect.flatMap((result) => reply(permitJoinSetter, result))
    )
  }

  /** Asks a device with `/get` for what it has not published yet; answers each channel as its value arrives. */
  const ask = (
    device: MappedDevice,
    wanted: ReadonlyArray<{ readonly channel: ChannelId; readonly point: Point }>,
    reply: Reply<Option.Option<Value>>
  ) =>
    Effect.gen(function*() {
      const pending = yield* Effect.forEach(wanted, ({ channel, point }) =>
        Effect.map(Deferred.make<Value>(), (answer) => ({ channel, waiter: { point, answer } })))
      const set = waiters.get(device.friendlyName) ?? new Set<Waiter>()
      waiters.set(device.friendlyName, set)
      const forget = Effect.sync(() => {
        for (const { waiter } of pending) set.delete(waiter)
        if (set.size === 0 && waiters.get(device.friendlyName) === set) waiters.delete(device.friendlyName)
      })
      for (const { waiter } of pending) set.add(waiter)
      const properties = wanted.flatMap(({ point }) => point.properties)
      const now = yield* Clock.currentTimeMillis
      const request = asked.awaited(device.friendlyName, properties, now)
        ? Effect.void
        : Effect.sync(() => asked.seen(device.friendlyName, properties, now)).pipe(
          Effect.andThen(connection.publish(`${base}/${device.friendlyName}/get`, JSON.stringify(Object.fromEntries(properties.map((p) => [p, ""]))))),
          Effect.tapError(() => Effect.sync(() => asked.settled(device.friendlyName, properties)))
        )
      yield* request.pipe(
        Effect.matchEffect({
          onFailure: (error) => Effect.forEach(pending, ({ channel }) => reply(channel, Result.fail(error.message)), { discard: true }),
          onSuccess: () =>
            Effect.forEach(pending, ({ channel, waiter }) =>
              Deferred.await(waiter.answer).pipe(Effect.flatMap((value) => reply(channel, Result.succeed(Option.some(value))))), {
              concurrency: "unbounded",
              discard: true
            })
        }),
        // The gateway's device timeout ends a wait that no state answers.
        Effect.ensuring(forget)
      )
    })

  const host = yield* register(adapter)
  const shown = makeShownServices(host, "Zigbee2MQTT", zigbee2mqttAdapterId)

  const isShown = (device: MappedDevice) => bridgeOnline !== false && availability.get(device.friendlyName) !== false

  /** What a device said while it was not shown; not its events, which happened then and are no news now. */
  const reportKnown = (device: MappedDevice) =>
    Effect.forEach(device.points.filter((point) => !point.event), (point) => {
      const state = states.get(device.friendlyName)
      const value = state === undefined ? Option.none() : point.read(state)
      return Option.isSome(point.getter) && Option.isSome(value) ? host.reportValue(point.getter.value, value.value) : Effect.void
    }, { discard: true })

  /** Brings the gateway's services in line with the bridge: devices shown, updated or taken out. */
  const synchronise = Effect.gen(function*() {
    channels.clear()
    for (const device of devices.values()) {
      for (const point of device.points) {
        for (const id of [...Option.toArray(point.getter), ...Option.toArray(point.setter)]) channels.set(id, { device, point })
      }
    }
    const wanted = new Map<ServiceId, WantedService>()
    for (const device of devices.values()) {
      if (isShown(device)) wanted.set(device.service.id, { service: device.service, reportKnown: reportKnown(device) })
    }
    if (Option.isSome(info)) wanted.set(bridgeServiceId, { service: bridgeService(info.value, bridgeOnline, base), reportKnown: Effect.void })
    yield* shown.synchronise(wanted)
  })

  /**
   * A state message: merged into the device's state; each value it holds is reported and answers
   * waiting fetches. An event in it (an action) is reported as one, each time; an event in a retained
   * message happened before the gateway listened, and an empty one is none: both are left out.
   */
  const onState = (name: string, said: State, retained: boolean) =>
    Effect.gen(function*() {
      const ieee = byName.get(name)
      const device = ieee === undefined ? undefined : devices.get(ieee)
      const stale = (device?.points ?? []).filter((p) => p.event && p.properties.some((k) => k in said) && (retained || Option.isNone(p.read(said))))
      const message = stale.length === 0 ? said : Object.fromEntries(Object.entries(said).filter(([key]) => !stale.some((p) => p.properties.includes(key))))
      const after = { ...states.get(name), ...message }
      states.set(name, after)
      asked.settled(name, Object.keys(message))
      if (device === undefined) return
      for (const point of device.points) {
        if (!point.properties.some((p) => p in message)) continue
        const value = point.read(after)
        if (Option.isNone(value)) continue
        for (const waiter of waiters.get(name) ?? []) {
          if (waiter.point === point) yield* Deferred.succeed(waiter.answer, value.value)
        }
        // A retained state delivered again after a reconnection is no news: the Registry reports changes only.
        if (Option.isSome(point.getter) && isShown(device) && shown.isShown(device.service.id)) {
          yield* (point.event ? host.reportEvent : host.reportValue)(point.getter.value, value.value)
        }
      }
    })

  const onMessage = (topic: string, payload: string, retained: boolean) =>
    Effect.gen(function*() {
      if (!topic.startsWith(`${base}/`)) return
      const what = readTopic(topic.slice(base.length + 1))
      switch (what._tag) {
        case "Devices": {
          const list = readBridgeDevices(payload)
          if (Result.isFailure(list)) return yield* Effect.logWarning(`ignoring Zigbee2MQTT's ${list.failure}`)
          const screened = screenDevices(list.success, base)
          for (const line of screened.refusals) if (!refused.has(line)) yield* Effect.logWarning(line)
          refused = screened.refusals
          devices = new Map(screened.shown.flatMap((d) => Option.toArray(mapDevice(d))).map((d) => [d.ieee, d]))
          byName.clear()
          for (const device of devices.values()) byName.set(device.friendlyName, device.ieee)
          return yield* synchronise
        }
        case "Info": {
          const read = readBridgeInfo(payload)
          if (Result.isFailure(read)) return yield* Effect.logWarning(`ignoring Zigbee2MQTT's ${read.failure}`)
          info = Option.some(read.success)
          return yield* synchronise
        }
        case "BridgeState": {
          const online = readOnline(payload)
          if (Option.isNone(online)) return
          bridgeOnline = online.value
          return yield* synchronise
        }
        case "Availability": {
          const online = readOnline(payload)
          if (Option.isNone(online)) return
          availability.set(what.name, online.value)
          return yield* synchronise
        }
        case "State": {
          const state = readState(payload)
          if (Option.isSome(state)) yield* onState(what.name, state.value, retained)
          return
        }
        // A device asked for its state, by this gateway or another replica: its answer is awaited before asking again.
        case "Get": {
          const request = readState(payload)
          if (Option.isSome(request)) asked.seen(what.name, Object.keys(request.value), yield* Clock.currentTimeMillis)
          return
        }
        // Our own `/set` (we subscribe to `<base>/#`), other clients' commands, the bridge's other topics.
        case "Command":
        case "Ignored":
          return
      }
    })

  yield* followConnection(connection, "zigbee2mqtt", { connected: Effect.void, message: onMessage })
  return { health: connection.health }
})

/** The Zigbee2MQTT adapter (`zigbee2mqtt@gateway.local`), docs/adapters/mqtt.md. */
export const Zigbee2MqttAdapter = {
  connect,
  layer: (settings: Zigbee2MqttSettings) => Layer.effectDiscard(startMqttAdapter(connect, settings))
}
