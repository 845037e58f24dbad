import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import type { ChannelId } from "../../domain/Identifier.ts"
import type { Value } from "../../domain/Value.ts"
import type { Adapter, ChannelDescription, DeviceHost } from "../../gateway/Adapter.ts"
import { configTopicProblem, makeCommandTopics } from "./CommandTopics.ts"
import { followConnection, startMqttAdapter } from "./ConnectionFollower.ts"
import { boundedText } from "./DeviceText.ts"
import { type Entity, makeDiscoveredHome } from "./DiscoveredHome.ts"
import { mapEntity } from "./DiscoveryComponents.ts"
import { availabilityOf, deviceOf, type DiscoveryTopic, readConfig, readDiscoveryTopic } from "./DiscoveryConfig.ts"
import { discoveryAdapterId, discoveryGetterId, type DiscoveryPoint, discoveryServiceId, discoverySetterId, makesIds } from "./DiscoveryPoint.ts"
import { readTemplate } from "./DiscoveryTemplate.ts"
import { type MqttClientSettings, openMqttConnection } from "./MqttConnection.ts"
import { makeShownServices, publishReply } from "./ShownServices.ts"
import { makeWarnOnce, quoted } from "./WarnOnce.ts"

export interface MqttDiscoverySettings extends MqttClientSettings {
  /** Home Assistant's discovery prefix (default `homeassistant`). */
  readonly prefix: string
  /** Zigbee2MQTT's base topic on the same broker: no discovered entity may command under it. */
  readonly baseTopic: string
}

/** A broker hands a new subscription its retained messages at once: on a network, well within this. */
const birthWait: Duration.Input = "1 second"

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
  const connection = yield* openMqttConnection(settings, [`${prefix}/#`], "the MQTT discovery connection")
  const brokerAway = () => `the MQTT broker at ${connection.where} is not reachable`

  const home = makeDiscoveredHome()
  const latest = new Map<string, Said>()
  let order = 0
  /** Connections made so far, and the one on which a retained config last came (the broker holds the home). */
  let connections = 0
  let retainedConfigOn = 0
  /** The channels of the devices shown, and those of each device. */
  const channels = new Map<ChannelId, { readonly entity: Entity; readonly point: DiscoveryPoint }>()
  const channelsOf = new Map<string, ReadonlyArray<ChannelId>>()
  const commandTopics = makeCommandTopics({ baseTopic: settings.baseTopic, prefix })
  /** What was said about a malformed message, each once. */
  const { warnOnce } = makeWarnOnce()

  /** The value a point holds now: from the last message on its topic; an event only if it happened while the gateway listened. */
  const heldValue = (point: DiscoveryPoint): Option.Option<Value> =>
    Option.flatMap(point.reading, ({ topic, read }) => {
      const said = latest.get(topic)
      return said === undefined || (point.event && said.retained) ? Option.none() : read(said.payload)
    })

  const adapter: Adapter = {
    id: discoveryAdapterId,
    // Every value is held in memory: a read is answered at once (`reply.now`), and is over when this returns.
    fetch: (ids, _context, reply) => {
      for (const id of ids) {
        const entry = channels.get(id)
        if (entry === undefined || Option.isNone(entry.point.reading)) reply.now(id, Result.fail(`MQTT discovery has no getter ${id}`))
        else if (!connection.isConnected()) reply.now(id, Result.fail(brokerAway()))
        else reply.now(id, Result.succeed(heldValue(entry.point)))
      }
      return Effect.void
    },
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
  const shown = makeShownServices(host, "MQTT discovery", discoveryAdapterId)

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
      const value = heldValue(point)
      return Option.isSome(value) ? host.reportValue(discoveryGetterId(device, point.local), value.value) : Effect.void
    }, { discard: true })

  /**
   * Brings the gateway's service of one device in line with its entities: its available entities'
   * channels (the first entity to name a channel has it), or no service when none is available.
   */
  const showDevice = (device: string) =>
    Effect.suspend(() => {
      for (const id of channelsOf.get(device) ?? []) channels.delete(id)
      channelsOf.delete(device)
      const points: Array<{ readonly entity: Entity; readonly point: DiscoveryPoint }> = []
      const taken = new Set<string>()
      for (const entity of home.entitiesOf(device)) {
        if (!isAvailable(entity)) continue
        for (const point of entity.points) {
          if (taken.has(point.local)) continue
          taken.add(point.local)
          points.push({ entity, point })
        }
      }
      const id = discoveryServiceId(device)
      const [first] = points
      // An entity whose every channel was left out (a template the gateway cannot evaluate) shows nothing.
      if (first === undefined) return shown.update(id, Option.none())
      const described = first.entity.described
      const properties: Record<string, string> = { ...described.properties, identifiers: boundedText(described.identifiers.join(", ")) }
      for (const { point } of points) Object.assign(properties, point.describes)
      const getters: Array<ChannelDescription> = []
      const setters: Array<ChannelDescription> = []
      for (const entry of points) {
        const { point } = entry
        if (Option.isSome(point.reading)) {
          const getter = discoveryGetterId(device, point.local)
          getters.push(channel(getter, point))
          channels.set(getter, entry)
        }
        if (Option.isSome(point.writing)) {
          const setter = discoverySetterId(device, point.local)
          setters.push(channel(setter, point))
          channels.set(setter, entry)
        }
      }
      channelsOf.set(device, [...getters, ...setters].map(({ id }) => id))
      return shown.update(id, Option.some({
        service: { id, tags: [], properties, getters, setters },
        reportKnown: reportKnown(points.map(({ point }) => ({ device, point })))
      }))
    })

  /**
   * Puts an entity in (`None`: takes it out), and brings only what it touches in line: its topics
   * subscribed to while an entity reads them (what a topic let go last said is forgotten), and its
   * device's service (and that of the device it left).
   */
  const putEntity = (key: string, entity: Option.Option<Entity>) =>
    Effect.gen(function*() {
      const { follow, release, devices } = home.put(key, entity)
      for (const topic of release) latest.delete(topic)
      yield* connection.unsubscribe(release)
      yield* connection.subscribe(follow)
      for (const device of devices) yield* showDevice(device)
    })

  /** A `config` message: the entity added, updated, or (empty) removed. A malformed one leaves the rest as it was. */
  const onConfig = (topic: string, discovered: DiscoveryTopic, payload: string) =>
    Effect.gen(function*() {
      const key = `${discovered.component}/${discovered.path}`
      const ignore = (why: string) => warnOnce(`ignoring the MQTT discovery config on ${quoted(topic)}: ${quoted(why)}`)
      const read = readConfig(payload)
      if (Result.isFailure(read)) return yield* ignore(`it ${read.failure}`)
      if (Option.isNone(read.success)) {
        commandTopics.release(key)
        return yield* putEntity(key, Option.none())
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
        yield* warnOnce(`MQTT discovery leaves out a channel of ${quoted(topic)}: its ${quoted(template)} is not a plain JSON path ({{ value_json.x }})`)
      }
      const { topics, mode } = availabilityOf(config)
      const availability: Array<Entity["availability"][number]> = []
      for (const entry of topics) {
        const extract = readTemplate(entry.template)
        if (Result.isSuccess(extract)) availability.push({ ...entry, extract: extract.success })
        else {
          yield* warnOnce(
            `MQTT discovery ignores an availability topic of ${quoted(topic)}: its template ${quoted(extract.failure)} is not a plain JSON path ({{ value_json.x }})`
          )
        }
      }
      yield* putEntity(key, Option.some({ device: identifier, described: device.value, points: mapped.success.points, availability, mode }))
    })

  /** A message on a state or availability topic: each value it holds is reported; an event in a retained message is none. */
  const onMessage = (topic: string, payload: string, retained: boolean) =>
    Effect.gen(function*() {
      const discovered = readDiscoveryTopic(prefix, topic)
      if (Option.isSome(discovered)) {
        if (retained) retainedConfigOn = connections
        return yield* onConfig(topic, discovered.value, payload)
      }
      latest.set(topic, { payload, retained, order: order++ })
      for (const device of home.availableOn(topic)) yield* showDevice(device)
      for (const entity of home.readingState(topic)) {
        for (const point of entity.points) {
          if (Option.isNone(point.reading) || point.reading.value.topic !== topic) continue
          const value = point.reading.value.read(payload)
          const id = discoveryGetterId(entity.device, point.local)
          if (Option.isNone(value) || (point.event && retained) || channels.get(id)?.point !== point) continue
          yield* (point.event ? host.reportEvent : host.reportValue)(id, value.value)
        }
      }
    })

  /** Home Assistant's birth message: devices announce themselves (again) when they see it. */
  const announceBirth = connection.publish(`${prefix}/status`, "online").pipe(
    Effect.catchTag("PublishFailed", (error) => Effect.logWarning(`cannot publish the MQTT discovery birth message: ${error.reason}`))
  )

  /**
   * After each connection, the birth message only if no retained config came within `birthWait`: the
   * broker then holds no home to learn, and the devices must announce themselves. One that does hold
   * it (a replica started after another, a broker back with its retained messages) needs no birth,
   * which would make every device announce itself again to every replica.
   */
  const scope = yield* Effect.scope
  const announceUnlessRetained = Effect.suspend(() => {
    const current = ++connections
    return Effect.sleep(birthWait).pipe(
      // Not after a later connection either: that one decides for itself.
      Effect.andThen(Effect.suspend(() => (retainedConfigOn === current || connections !== current ? Effect.void : announceBirth))),
      Effect.forkIn(scope),
      Effect.asVoid
    )
  })

  yield* followConnection(connection, "mqtt-discovery", { connected: announceUnlessRetained, message: onMessage })
  return { health: connection.health }
})

/** The MQTT discovery adapter (`mqtt-discovery@gateway.local`), docs/adapters/mqtt.md. */
export const MqttDiscoveryAdapter = {
  connect,
  layer: (settings: MqttDiscoverySettings) => Layer.effectDiscard(startMqttAdapter(connect, settings))
}
