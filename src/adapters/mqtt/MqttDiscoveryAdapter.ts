import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import type { ChannelId, ServiceId } from "../../domain/Identifier.ts"
import type { Value } from "../../domain/Value.ts"
import type { Adapter, ChannelDescription, DeviceHost } from "../../gateway/Adapter.ts"
import { Registry } from "../../gateway/Registry.ts"
import { configTopicProblem, makeCommandTopics } from "./CommandTopics.ts"
import { followConnection } from "./ConnectionFollower.ts"
import { boundedText } from "./DeviceText.ts"
import { mapEntity } from "./DiscoveryComponents.ts"
import {
  type AvailabilityMode,
  type AvailabilityTopic,
  availabilityOf,
  type DiscoveredDevice,
  deviceOf,
  type DiscoveryTopic,
  readConfig,
  readDiscoveryTopic
} from "./DiscoveryConfig.ts"
import { discoveryAdapterId, discoveryGetterId, type DiscoveryPoint, discoveryServiceId, discoverySetterId, makesIds } from "./DiscoveryPoint.ts"
import { type Extract, readTemplate } from "./DiscoveryTemplate.ts"
import { type MqttClientSettings, openMqttConnection } from "./MqttConnection.ts"
import { makeShownServices, publishReply, type WantedService } from "./ShownServices.ts"

export interface MqttDiscoverySettings extends MqttClientSettings {
  /** Home Assistant's discovery prefix (default `homeassistant`). */
  readonly prefix: string
  /** Zigbee2MQTT's base topic on the same broker: no discovered entity may command under it. */
  readonly baseTopic: string
}

/** One discovered entity: a `config` message's component, read. */
interface Entity {
  /** The service local id of its device (its first identifier). */
  readonly device: string
  readonly described: DiscoveredDevice
  readonly points: ReadonlyArray<DiscoveryPoint>
  readonly availability: ReadonlyArray<AvailabilityTopic & { readonly extract: Extract }>
  readonly mode: AvailabilityMode
}

/** The last message on a topic the adapter follows, and when it came (in the order messages came). */
interface Said {
  readonly payload: string
  readonly retained: boolean
  readonly order: number
}

/**
 * Zigbee2MQTT's own discovery names its devices `zigbee2mqtt_<ieee_address>` (and its bridge
 * `zigbee2mqtt_bridge_<ieee_address>`): the Zigbee2MQTT adapter, on the same broker, shows them already.
 */
const zigbee2mqttIdentifier = /^zigbee2mqtt_(?:bridge_)?0x[0-9a-f]{16}$/i

const channel = (id: ChannelId, point: DiscoveryPoint): ChannelDescription => ({ id, kind: point.kind, tags: [], pushMs: 0 })

/**
 * The MQTT discovery adapter: follows Home Assistant's discovery protocol on a broker (the `config`
 * messages under the prefix, then each entity's state and availability topics) and shows each
 * announced device as a service. One fiber reads the connection's events in order and keeps the
 * picture; fetch reads it, send publishes commands.
 */
const connect = Effect.fnUntraced(function*(
  register: (adapter: Adapter) => Effect.Effect<DeviceHost, never, Scope.Scope>,
  settings: MqttDiscoverySettings
) {
  const prefix = settings.prefix
  const connection = yield* openMqttConnection(settings, [`${prefix}/#`])
  const brokerAway = () => `the MQTT broker at ${connection.where} is not reachable`

  /** By `<component>/<node_id>/<object_id>`. */
  const entities = new Map<string, Entity>()
  const latest = new Map<string, Said>()
  let order = 0
  /** The channels of the devices shown, and the points reading each topic. */
  const channels = new Map<ChannelId, { readonly entity: Entity; readonly point: DiscoveryPoint }>()
  const readers = new Map<string, Array<{ readonly entity: Entity; readonly point: DiscoveryPoint }>>()
  const availabilityTopics = new Set<string>()
  /** The state and availability topics subscribed to for the entities. */
  let followed: ReadonlySet<string> = new Set()
  const commandTopics = makeCommandTopics({ baseTopic: settings.baseTopic, prefix })
  /** What was said about a malformed message, each once. */
  const warned = new Set<string>()
  const warnOnce = (message: string) =>
    Effect.suspend(() => (warned.has(message) ? Effect.void : (warned.add(message), Effect.logWarning(message))))

  /** The value a point holds now: from the last message on its topic; an event only if it happened while the gateway listened. */
  const valueOf = (point: DiscoveryPoint): Option.Option<Value> =>
    Option.flatMap(point.reading, ({ topic, read }) => {
      const said = latest.get(topic)
      return said === undefined || (point.event && said.retained) ? Option.none() : read(said.payload)
    })

  const adapter: Adapter = {
    id: discoveryAdapterId,
    fetch: (ids, _context, reply) =>
      Effect.forEach(ids, (id) => {
        const entry = channels.get(id)
        if (entry === undefined || Option.isNone(entry.point.reading)) return reply(id, Result.fail(`MQTT discovery has no getter ${id}`))
        if (!connection.isConnected()) return reply(id, Result.fail(brokerAway()))
        return reply(id, Result.succeed(valueOf(entry.point)))
      }, { discard: true }),
    send: (writes, _context, reply) =>
      Effect.forEach(writes, ({ channel: id, value }) => {
        const entry = channels.get(id)
        if (entry === undefined || Option.isNone(entry.point.writing)) return reply(id, Result.fail(`MQTT discovery has no setter ${id}`))
        const { topic, write } = entry.point.writing.value
        const payload = write(value)
        if (Result.isFailure(payload)) return reply(id, Result.fail(payload.failure))
        return Effect.flatMap(publishReply(connection, topic, payload.success), (result) => reply(id, result))
      }, { concurrency: "unbounded", discard: true }),
    refusesWatch: () => Option.none()
  }

  const host = yield* register(adapter)
  const shown = makeShownServices(host, "MQTT discovery")

  /** Whether an entity's availability topics say it is available, as its mode combines them (Home Assistant's rules). */
  const isAvailable = (entity: Entity): boolean => {
    if (entity.availability.length === 0) return true
    const says = entity.availability.map(({ topic, extract, available, notAvailable }) => {
      const said = latest.get(topic)
      const text = said === undefined ? Option.none() : extract(said.payload)
      const state = Option.isNone(text) ? undefined : text.value === available ? true : text.value === notAvailable ? false : undefined
      return { state, order: said?.order ?? -1 }
    })
    switch (entity.mode) {
      case "all":
        return says.every((s) => s.state === true)
      case "any":
        return says.some((s) => s.state === true)
      case "latest": {
        const known = says.filter((s) => s.state !== undefined)
        return known.length > 0 && known.reduce((a, b) => (b.order > a.order ? b : a)).state === true
      }
    }
  }

  /** Reports what a device's entities said while it was not shown; not their events, which are no news now. */
  const reportKnown = (points: ReadonlyArray<{ readonly device: string; readonly point: DiscoveryPoint }>) =>
    Effect.forEach(points.filter(({ point }) => !point.event), ({ device, point }) => {
      const value = valueOf(point)
      return Option.isSome(value) ? host.reportValue(discoveryGetterId(device, point.local), value.value) : Effect.void
    }, { discard: true })

  /** Brings the gateway's services in line with the entities: each device with its available entities' channels. */
  const synchronise = Effect.gen(function*() {
    channels.clear()
    readers.clear()
    availabilityTopics.clear()
    const devices = new Map<string, { described: DiscoveredDevice; points: Array<{ entity: Entity; point: DiscoveryPoint }> }>()
    for (const entity of entities.values()) {
      for (const { topic } of entity.availability) availabilityTopics.add(topic)
      for (const point of entity.points) {
        if (Option.isSome(point.reading)) readers.set(point.reading.value.topic, [...(readers.get(point.reading.value.topic) ?? []), { entity, point }])
      }
      if (!isAvailable(entity)) continue
      const device = devices.get(entity.device) ?? { described: entity.described, points: [] }
      devices.set(entity.device, device)
      const taken = new Set(device.points.map(({ point }) => point.local))
      device.points.push(...entity.points.filter((point) => !taken.has(point.local)).map((point) => ({ entity, point })))
    }
    const wanted = new Map<ServiceId, WantedService>()
    for (const [device, { described, points }] of devices) {
      // An entity whose every channel was left out (a template the gateway cannot evaluate) shows nothing.
      if (points.length === 0) continue
      const properties: Record<string, string> = { ...described.properties, identifiers: boundedText(described.identifiers.join(", ")) }
      for (const { point } of points) Object.assign(properties, point.describes)
      for (const { entity, point } of points) {
        if (Option.isSome(point.reading)) channels.set(discoveryGetterId(device, point.local), { entity, point })
        if (Option.isSome(point.writing)) channels.set(discoverySetterId(device, point.local), { entity, point })
      }
      wanted.set(discoveryServiceId(device), {
        service: {
          id: discoveryServiceId(device),
          tags: [],
          properties,
          getters: points.flatMap(({ point }) => (Option.isSome(point.reading) ? [channel(discoveryGetterId(device, point.local), point)] : [])),
          setters: points.flatMap(({ point }) => (Option.isSome(point.writing) ? [channel(discoverySetterId(device, point.local), point)] : []))
        },
        reportKnown: reportKnown(points.map(({ point }) => ({ device, point })))
      })
    }
    yield* shown.synchronise(wanted)
  })

  /**
   * Subscribes to the state and availability topics the entities read, and no more: those of an entity
   * removed or changed, which no other reads, are let go (and what they last said forgotten).
   */
  const followTopics = Effect.gen(function*() {
    const read = new Set<string>()
    for (const entity of entities.values()) {
      for (const point of entity.points) if (Option.isSome(point.reading)) read.add(point.reading.value.topic)
      for (const { topic } of entity.availability) read.add(topic)
    }
    const gone = [...followed].filter((topic) => !read.has(topic))
    for (const topic of gone) latest.delete(topic)
    yield* connection.unsubscribe(gone)
    yield* connection.subscribe([...read].filter((topic) => !followed.has(topic)))
    followed = read
  })

  /** A `config` message: the entity added, updated, or (empty) removed. A malformed one leaves the rest as it was. */
  const onConfig = (topic: string, discovered: DiscoveryTopic, payload: string) =>
    Effect.gen(function*() {
      const key = `${discovered.component}/${discovered.path}`
      const ignore = (why: string) => warnOnce(`ignoring the MQTT discovery config on ${topic}: ${why}`)
      const read = readConfig(payload)
      if (Result.isFailure(read)) return yield* ignore(`it ${read.failure}`)
      if (Option.isNone(read.success)) {
        entities.delete(key)
        commandTopics.release(key)
        yield* followTopics
        return yield* synchronise
      }
      const config = read.success.value
      const forbidden = configTopicProblem(config)
      if (Option.isSome(forbidden)) return yield* ignore(forbidden.value)
      const device = deviceOf(config)
      if (Option.isNone(device)) return yield* ignore("it names no device (device.identifiers) and no unique_id")
      if (device.value.identifiers.some((id) => zigbee2mqttIdentifier.test(id))) return
      const mapped = mapEntity(discovered.component, discovered.objectId, config)
      if (Result.isFailure(mapped)) return yield* ignore(mapped.failure)
      const identifier = device.value.identifiers[0] ?? ""
      if (!makesIds(identifier, mapped.success.points)) return yield* ignore("its ids would be longer than 256 characters or hold control characters")
      const claimed = commandTopics.claim(key, identifier, mapped.success.points)
      if (Result.isFailure(claimed)) return yield* ignore(claimed.failure)
      for (const template of mapped.success.unsupported) {
        yield* warnOnce(`MQTT discovery leaves out a channel of ${topic}: its ${template} is not a plain JSON path ({{ value_json.x }})`)
      }
      const { topics, mode } = availabilityOf(config)
      const availability: Array<Entity["availability"][number]> = []
      for (const entry of topics) {
        const extract = readTemplate(entry.template)
        if (Result.isSuccess(extract)) availability.push({ ...entry, extract: extract.success })
        else yield* warnOnce(`MQTT discovery ignores an availability topic of ${topic}: its template ${extract.failure} is not a plain JSON path ({{ value_json.x }})`)
      }
      entities.set(key, { device: identifier, described: device.value, points: mapped.success.points, availability, mode })
      yield* followTopics
      yield* synchronise
    })

  /** A message on a state or availability topic: each value it holds is reported; an event in a retained message is none. */
  const onMessage = (topic: string, payload: string, retained: boolean) =>
    Effect.gen(function*() {
      const discovered = readDiscoveryTopic(prefix, topic)
      if (Option.isSome(discovered)) return yield* onConfig(topic, discovered.value, payload)
      latest.set(topic, { payload, retained, order: order++ })
      if (availabilityTopics.has(topic)) yield* synchronise
      for (const { entity, point } of readers.get(topic) ?? []) {
        const value = Option.flatMap(point.reading, (reading) => reading.read(payload))
        const id = discoveryGetterId(entity.device, point.local)
        if (Option.isNone(value) || (point.event && retained) || !channels.has(id)) continue
        yield* (point.event ? host.reportEvent : host.reportValue)(id, value.value)
      }
    })

  /** Home Assistant's birth message: devices announce themselves (again) when they see it. */
  const announceBirth = connection.publish(`${prefix}/status`, "online").pipe(
    Effect.catchTag("PublishFailed", (error) => Effect.logWarning(`cannot publish the MQTT discovery birth message: ${error.reason}`))
  )

  yield* followConnection(connection, "mqtt-discovery", { connected: announceBirth, message: onMessage })
  return { unreachable: connection.unreachable }
})

/**
 * The MQTT discovery adapter (`mqtt-discovery@gateway.local`), docs/adapters/mqtt.md. It always runs
 * beside the Zigbee2MQTT adapter, on the same broker, and that one tells `/health` when the broker
 * cannot be reached: said once, not once per adapter.
 */
export const MqttDiscoveryAdapter = {
  connect,
  layer: (settings: MqttDiscoverySettings) => Layer.effectDiscard(Effect.flatMap(Registry, (registry) => connect(registry.register, settings)))
}
