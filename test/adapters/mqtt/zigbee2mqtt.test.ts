import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Logger, Option, Result, type Scope, Stream } from "effect"
import { connectAsync } from "mqtt"
import { Zigbee2MqttAdapter, type Zigbee2MqttSettings } from "../../../src/adapters/mqtt/Zigbee2MqttAdapter.ts"
import { anyService, ChannelId, channelSelector, exactly, ServiceId, Tag } from "../../../src/domain/index.ts"
import type { Value } from "../../../src/domain/index.ts"
import type { Adapter, DeviceHost } from "../../../src/gateway/Adapter.ts"
import { Dispatch } from "../../../src/gateway/Dispatch.ts"
import type { HomeChange } from "../../../src/gateway/HomeChange.ts"
import { Registry } from "../../../src/gateway/Registry.ts"
import { Tags } from "../../../src/gateway/Tags.ts"
import { eventually } from "../../support/eventually.ts"
import { replyingTo } from "../recordingHost.ts"
import { gatewayTestLayer } from "../../support/gatewayTestLayer.ts"
import { type Mosquitto, startMosquitto } from "../../support/mosquitto.ts"
import { bridgeDevices, type FakeBridge, ieee, startFakeBridge } from "../../support/zigbee2mqttBridge.ts"

const noUser = { user: Option.none() }
const { light, door, thermostat, lock, button, bulb } = ieee
const bridgeService = ServiceId.make("service:bridge@zigbee2mqtt")
const getter = (ieee: string, property: string) => ChannelId.make(`getter:${ieee}.${property}@zigbee2mqtt`)
const setter = (ieee: string, property: string) => ChannelId.make(`setter:${ieee}.${property}@zigbee2mqtt`)
const service = (ieee: string) => ServiceId.make(`service:${ieee}@zigbee2mqtt`)

let mosquitto: Mosquitto | undefined
beforeAll(async () => {
  mosquitto = await startMosquitto()
})
afterAll(async () => {
  await mosquitto?.stop()
})

let topics = 0
/** A fresh base topic per test, so that retained messages of one test never reach another. */
const freshBaseTopic = () => `zigbee2mqtt-${process.pid}-${++topics}`

/** The adapter's settings for `baseTopic` on the broker at `url`, with no credentials. */
const settingsFor = (url: string, baseTopic: string): Zigbee2MqttSettings => ({
  url,
  baseTopic,
  username: Option.none(),
  password: Option.none(),
  ca: Option.none(),
  cert: Option.none(),
  key: Option.none()
})

/** The gateway core with the Zigbee2MQTT adapter on `url`; logs kept out of the output unless `logs` takes them. */
const gatewayOn = (url: string, baseTopic: string, logs = Logger.layer([])) =>
  Zigbee2MqttAdapter.layer(settingsFor(url, baseTopic)).pipe(
    Layer.provideMerge(gatewayTestLayer({ deviceTimeoutMs: 3_000 })),
    Layer.provideMerge(logs)
  )

/** The shared mosquitto's URL, once `beforeAll` has started it. */
const sharedBroker = (): string => {
  if (mosquitto === undefined) throw new Error("mosquitto did not start")
  return mosquitto.url
}

/** A fake bridge on the broker at `url` under a fresh base topic, closed with the scope. */
const scopedBridge = (url: string) =>
  Effect.gen(function*() {
    const baseTopic = freshBaseTopic()
    const bridge = yield* Effect.acquireRelease(Effect.promise(() => startFakeBridge(url, { baseTopic })), (b) => Effect.promise(() => b.close()))
    return { bridge, baseTopic }
  })

/** Runs `body` with a fake bridge and a gateway following it on the shared mosquitto (or `url`), under a fresh base topic. */
const withBridge = <A, E>(
  body: (bridge: FakeBridge, where: { readonly url: string; readonly baseTopic: string }) => Effect.Effect<A, E, Registry | Dispatch | Tags | Scope.Scope>,
  url?: string
) =>
  Effect.gen(function*() {
    const broker = url ?? sharedBroker()
    const { bridge, baseTopic } = yield* scopedBridge(broker)
    return yield* Effect.gen(function*() {
      // Every device in, and every state the bridge published read.
      yield* eventually(seen, (ids) => published.every((id) => ids.includes(id)))
      return yield* body(bridge, { url: broker, baseTopic })
    }).pipe(Effect.provide(gatewayOn(broker, baseTopic)))
  }).pipe(Effect.scoped)

/** The devices' services (not the bridge's own). */
const serviceIds = Effect.gen(function*() {
  const registry = yield* Registry
  return (yield* registry.services([anyService])).map((s) => s.id).filter((id) => id !== bridgeService)
})

/** Getters whose device published a state when the bridge started. */
const published = [getter(light, "state"), getter(door, "contact"), getter(lock, "state")]
const seen = Effect.gen(function*() {
  const registry = yield* Registry
  return (yield* registry.channels([channelSelector({})])).filter((c) => c.updated !== null).map((c) => c.id)
})

const fetchOne = (channel: ChannelId) =>
  Effect.gen(function*() {
    const [result] = yield* (yield* Dispatch).fetch([channelSelector({ id: exactly(channel) })], noUser)
    return result?.result
  })

const sendAll = (writes: ReadonlyArray<[ChannelId, Value]>) =>
  Effect.gen(function*() {
    const dispatch = yield* Dispatch
    return yield* dispatch.send(writes.map(([id, value]) => ({ selectors: [channelSelector({ id: exactly(id) })], value })), noUser)
  })

/** Collects the registry's changes while `act` runs, until `enough` holds (a few seconds at most). */
const changesDuring = (act: Effect.Effect<void, unknown, Registry | Dispatch | Tags>, enough: (changes: ReadonlyArray<HomeChange>) => boolean) =>
  Effect.gen(function*() {
    const registry = yield* Registry
    const seen: Array<HomeChange> = []
    const collecting = yield* registry.changes.pipe(Stream.runForEach((c) => Effect.sync(() => void seen.push(c))), Effect.forkScoped)
    yield* Effect.yieldNow
    yield* act
    yield* eventually(Effect.sync(() => seen), enough)
    yield* Fiber.interrupt(collecting)
    return seen
  })

const values = (changes: ReadonlyArray<HomeChange>, channel: ChannelId) =>
  changes.flatMap((c) => (c._tag === "ValueReported" && c.channel === channel ? [c.value] : []))

/** The channels the `ChannelsChanged` changes name (what watchers re-check, and announce as added or removed), sorted. */
const announced = (changes: ReadonlyArray<HomeChange>): ReadonlyArray<ChannelId> =>
  [...new Set(changes.flatMap((c) => (c._tag === "ChannelsChanged" ? c.channels : [])))].sort()

const announces = (channels: ReadonlyArray<ChannelId>) => (changes: ReadonlyArray<HomeChange>) =>
  channels.every((id) => announced(changes).includes(id))

/** The ids of the channels of the devices given (every device's when none is), sorted. */
const channelsOf = (...devices: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const registry = yield* Registry
    const selectors = devices.length === 0 ? [channelSelector({})] : devices.map((ieee) => channelSelector({ service: exactly(service(ieee)) }))
    return (yield* registry.channels(selectors)).map((c) => c.id).sort()
  })

describe("Zigbee2MQTT over mosquitto", () => {
  it.live("shows each device of bridge/devices as a service with channels of the right kinds", () =>
    withBridge(() =>
      Effect.gen(function*() {
        const registry = yield* Registry
        const services = yield* registry.services([anyService])
        expect(services.map((s) => s.id)).toEqual(
          [service(lock), service(thermostat), service(door), service(light), service(button), service(bulb), bridgeService].sort()
        )
        const lightService = services.find((s) => s.id === service(light))
        expect(lightService?.properties).toMatchObject({ name: "living_room_light", model: "9290022166", vendor: "Philips", ieee_address: light })
        const channels = yield* registry.channels([channelSelector({})])
        const kinds = Object.fromEntries(channels.map((c) => [c.id, c.kind._tag === "Builtin" ? c.kind.name : c.kind.kind]))
        expect(kinds).toMatchObject({
          [getter(light, "state")]: "OnOff",
          [setter(light, "state")]: "OnOff",
          [setter(light, "color")]: "LightColor",
          [getter(door, "contact")]: "OpenClosed",
          [getter(door, "battery")]: "battery",
          [getter(thermostat, "local_temperature")]: "ActualTemperature",
          [setter(thermostat, "current_heating_setpoint")]: "Thermostat",
          [setter(lock, "state")]: "DoorLocked"
        })
      })
    ))

  it.live("answers reads from the state each device published, asking nothing", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        expect(yield* fetchOne(getter(light, "state"))).toEqual(Result.succeed(Option.some({ _tag: "OnOff", state: "Off" })))
        expect(yield* fetchOne(getter(light, "color"))).toEqual(Result.succeed(Option.some({ _tag: "Color", h: 120, s: 0.5, v: 0.5 })))
        expect(yield* fetchOne(getter(door, "contact"))).toEqual(Result.succeed(Option.some({ _tag: "OpenClosed", state: "Closed" })))
        expect(yield* fetchOne(getter(lock, "state"))).toEqual(Result.succeed(Option.some({ _tag: "DoorLocked", state: "Locked" })))
        expect(bridge.received).toEqual([])
      })
    ))

  it.live("asks with /get for a property with no state yet and answers with what the device then publishes", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        expect(yield* fetchOne(getter(thermostat, "local_temperature"))).toEqual(
          Result.succeed(Option.some({ _tag: "Temperature", unit: "C", degrees: 19.5 }))
        )
        expect(bridge.received.map((r) => [r.topic.split("/").slice(1).join("/"), r.payload])).toEqual([
          ["hall_thermostat/get", { local_temperature: "" }]
        ])
      })
    ))

  it.live("asks once for reads that come together: the second awaits the first's /get and its answer", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        const temperature = Result.succeed(Option.some({ _tag: "Temperature", unit: "C", degrees: 19.5 }))
        const reads = yield* Effect.all([fetchOne(getter(thermostat, "local_temperature")), fetchOne(getter(thermostat, "local_temperature"))], {
          concurrency: "unbounded"
        })
        expect(reads).toEqual([temperature, temperature])
        expect(bridge.received.map((r) => r.topic.split("/").slice(1).join("/"))).toEqual(["hall_thermostat/get"])
      })
    ))

  // The adapter alone, with a host and a reply that log what reaches the gateway, in order. A reply made
  // later (after a turn of the scheduler, say) would fail this: the gateway would record the older value last.
  it.live("replies to a /get as it takes the answering state in, before anything the device says after", () =>
    Effect.gen(function*() {
      const url = sharedBroker()
      const { bridge, baseTopic } = yield* scopedBridge(url)
      const channel = getter(thermostat, "local_temperature")
      const said: Array<readonly [string, unknown]> = []
      const thermostatShown = yield* Deferred.make<void>()
      let registered: Option.Option<Adapter> = Option.none()
      const host: DeviceHost = {
        upsertService: (description) => (description.id === service(thermostat) ? Deferred.succeed(thermostatShown, undefined) : Effect.void),
        upsertServices: () => Effect.succeed([]),
        removeService: () => Effect.void,
        reportValue: (id, value) => Effect.sync(() => void (id === channel && said.push(["report", value]))),
        reportValueNow: () => Effect.void,
        reportEvent: () => Effect.void
      }
      const register = (adapter: Adapter) =>
        Effect.sync(() => {
          registered = Option.some(adapter)
          return host
        })
      yield* Zigbee2MqttAdapter.connect(register, settingsFor(url, baseTopic)).pipe(Effect.provide(Logger.layer([])))
      yield* Deferred.await(thermostatShown)
      const adapter = yield* Effect.fromOption(registered)
      yield* adapter.fetch([channel], noUser, replyingTo((id, result) => void (id === channel && said.push(["reply", Result.map(result, Option.getOrNull)]))))
      yield* Effect.promise(() => bridge.publishState("hall_thermostat", { local_temperature: 20 }))
      yield* eventually(Effect.sync(() => said.length), (n) => n >= 3)
      const celsius = (degrees: number) => ({ _tag: "Temperature", unit: "C", degrees })
      expect(said).toEqual([["reply", Result.succeed(celsius(19.5))], ["report", celsius(19.5)], ["report", celsius(20)]])
    }).pipe(Effect.scoped))

  it.live("sends one /set message per device, holding every property written to it", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        const results = yield* sendAll([
          [setter(light, "state"), { _tag: "OnOff", state: "On" }],
          [setter(light, "color"), { _tag: "Color", h: 240, s: 1, v: 1 }],
          [setter(lock, "state"), { _tag: "DoorLocked", state: "Unlocked" }],
          [setter(thermostat, "current_heating_setpoint"), { _tag: "Temperature", unit: "C", degrees: 22.5 }]
        ])
        expect(results.every((r) => Result.isSuccess(r.result))).toBe(true)
        yield* eventually(Effect.sync(() => bridge.received.length), (n) => n >= 3)
        const sets = Object.fromEntries(bridge.received.map((r) => [r.topic.split("/").slice(1).join("/"), r.payload]))
        expect(bridge.received).toHaveLength(3)
        expect(sets).toEqual({
          "living_room_light/set": { state: "ON", color: { hue: 240, saturation: 100 }, brightness: 254 },
          "back_door_lock/set": { state: "UNLOCK" },
          "hall_thermostat/set": { current_heating_setpoint: 22.5 }
        })
        // The devices publish their new state, which reads then answer.
        const unlocked = Result.succeed(Option.some<Value>({ _tag: "DoorLocked", state: "Unlocked" }))
        const read = yield* eventually(fetchOne(getter(lock, "state")), (r) => JSON.stringify(r) === JSON.stringify(unlocked))
        expect(read).toEqual(unlocked)
      })
    ))

  it.live("reports each published state to watchers", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        const changes = yield* changesDuring(
          Effect.promise(() => bridge.publishState("front_door", { contact: false, battery: 90 })),
          (seen) => values(seen, getter(door, "battery")).length > 0
        )
        expect(values(changes, getter(door, "contact"))).toEqual([{ _tag: "OpenClosed", state: "Open" }])
        expect(values(changes, getter(door, "battery"))).toEqual([
          { _tag: "ExtNumeric", value: 90, vendor: "zigbee2mqtt", adapter: "zigbee2mqtt@gateway.local", kind: "battery" }
        ])
      })
    ))

  it.live("reads no state from a /set message, its own or another client's", () =>
    withBridge((bridge, { url, baseTopic }) =>
      Effect.gen(function*() {
        // A device named `living_room_light/set`: its state topic is the light's command topic, so a
        // command to the light taken for a state would show as its value.
        const shadow = "0x0017880100000009"
        const lightDevice = bridgeDevices.find((d) => d.friendly_name === "living_room_light")
        const withShadow = [...bridgeDevices, { ...lightDevice, ieee_address: shadow, friendly_name: "living_room_light/set" }]
        yield* Effect.promise(() => bridge.setDevices(withShadow))
        yield* eventually(serviceIds, (ids) => ids.includes(service(shadow)))
        const outside = yield* Effect.acquireRelease(Effect.promise(() => connectAsync(url)), (c) => Effect.promise(() => c.endAsync()))
        const publish = (topic: string, payload: string) => Effect.promise(() => outside.publishAsync(`${baseTopic}/${topic}`, payload, { qos: 1 }))

        const color = { _tag: "Color", h: 240, s: 1, v: 1 } as const
        const changes = yield* changesDuring(
          Effect.gen(function*() {
            // Another client's commands, in both of Zigbee2MQTT's forms, then the gateway's own.
            yield* publish("living_room_light/set", JSON.stringify({ state: "ON" }))
            yield* publish("living_room_light/set/brightness", "200")
            yield* sendAll([[setter(light, "color"), color]])
          }),
          // The light's new colour, which the bridge publishes once it took the gateway's /set.
          (seen) => values(seen, getter(light, "color")).length > 0
        )
        expect(values(changes, getter(light, "state"))).toEqual([{ _tag: "OnOff", state: "On" }])
        expect(values(changes, getter(light, "color"))).toEqual([color])
        const registry = yield* Registry
        const shadowChannels = yield* registry.channels([channelSelector({ service: exactly(service(shadow)) })])
        expect(shadowChannels.length).toBeGreaterThan(0)
        expect(shadowChannels.filter((c) => c.updated !== null).map((c) => c.id)).toEqual([])
        expect(changes.filter((c) => c._tag === "ValueReported" && c.channel.includes(shadow))).toEqual([])
      })
    ))

  it.live("takes a device out when it goes offline and brings it back online, in both availability forms, telling watchers", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        const doorChannels = yield* channelsOf(door)
        const lockChannels = yield* channelsOf(lock)
        expect(doorChannels.length).toBeGreaterThan(1)
        const offline = yield* changesDuring(Effect.promise(() => bridge.setAvailability("front_door", false)), announces(doorChannels))
        expect(announced(offline)).toEqual(doorChannels)
        expect(yield* eventually(serviceIds, (ids) => !ids.includes(service(door)))).not.toContain(service(door))
        const online = yield* changesDuring(Effect.promise(() => bridge.setAvailability("front_door", true, true)), announces(doorChannels))
        expect(announced(online)).toEqual(doorChannels)
        expect(yield* eventually(serviceIds, (ids) => ids.includes(service(door)))).toContain(service(door))
        const lockOffline = yield* changesDuring(Effect.promise(() => bridge.setAvailability("back_door_lock", false, true)), announces(lockChannels))
        expect(announced(lockOffline)).toEqual(lockChannels)
        expect(yield* eventually(serviceIds, (ids) => !ids.includes(service(lock)))).not.toContain(service(lock))
      })
    ))

  it.live("takes every device out while the bridge says it is offline, and brings them back when it is online", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        const every = yield* channelsOf()
        const offline = yield* changesDuring(Effect.promise(() => bridge.setBridgeState(false)), announces(every))
        expect(announced(offline)).toEqual(every)
        expect(yield* eventually(serviceIds, (ids) => ids.length === 0)).toEqual([])
        // The bridge itself stays, and says it is offline.
        const registry = yield* Registry
        expect((yield* registry.services([{ ...anyService, id: exactly(bridgeService) }])).map((s) => s.properties["state"])).toEqual(["offline"])
        const online = yield* changesDuring(Effect.promise(() => bridge.setBridgeState(true)), announces(every))
        expect(announced(online)).toEqual(every)
        expect(yield* eventually(serviceIds, (ids) => ids.length === 6)).toHaveLength(6)
      })
    ))

  it.live("follows bridge/devices: a device that leaves is removed, a renamed one keeps its ids and tags", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        const tags = yield* Tags
        yield* tags.tagServices("add", [{ ...anyService, id: exactly(service(light)) }], [Tag.make("lounge")])
        const renamed = bridgeDevices
          .filter((d) => d.friendly_name !== "front_door")
          .map((d) => (d.friendly_name === "living_room_light" ? { ...d, friendly_name: "lounge_lamp" } : d))
        // The door's channels leave; the renamed light's are announced as changed (its service's name did), under the same ids.
        const touched = [...(yield* channelsOf(door)), ...(yield* channelsOf(light))].sort()
        const changes = yield* changesDuring(Effect.promise(() => bridge.setDevices(renamed)), announces(touched))
        expect(announced(changes)).toEqual(touched)
        const ids = yield* eventually(serviceIds, (ids) => !ids.includes(service(door)))
        expect(ids).toEqual([service(lock), service(thermostat), service(light), service(button), service(bulb)].sort())
        const registry = yield* Registry
        const lamp = yield* eventually(
          registry.services([{ ...anyService, id: exactly(service(light)) }]),
          ([s]) => s?.properties["name"] === "lounge_lamp"
        )
        expect(lamp[0]).toMatchObject({ properties: { name: "lounge_lamp" }, tags: ["lounge"] })
      })
    ))
})

describe("Zigbee2MQTT's actions, colours in xy, enums and the bridge", () => {
  const action = getter(button, "action")
  const text = (value: string): Value => ({ _tag: "String", value })

  it.live("reports each press as an event, the same action twice in a row included; a read answers the last, none before the first", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        expect(yield* fetchOne(action)).toEqual(Result.succeed(Option.none()))
        const presses = ["single_left", "single_left", "single_right"]
        const changes = yield* changesDuring(
          Effect.promise(async () => {
            for (const press of presses) await bridge.press("study_switch", press)
          }),
          (seen) => values(seen, action).length === presses.length
        )
        expect(values(changes, action)).toEqual(presses.map(text))
        expect(yield* fetchOne(action)).toEqual(Result.succeed(Option.some(text("single_right"))))
        // The time of the last press is the getter's `updated`.
        const registry = yield* Registry
        const [channel] = yield* registry.channels([channelSelector({ id: exactly(action) })])
        const lastPress = changes.filter((c) => c._tag === "ValueReported" && c.channel === action).at(-1)
        expect(channel?.updated).toBe(lastPress?._tag === "ValueReported" ? lastPress.at : undefined)
      })
    ))

  it.live("takes no press from a retained message (said before the gateway listened) nor from an empty action", () =>
    Effect.gen(function*() {
      const url = sharedBroker()
      const { bridge, baseTopic } = yield* scopedBridge(url)
      // Retained before the gateway subscribes: the broker hands it over as an old message.
      yield* Effect.promise(() => bridge.publishState("study_switch", { action: "hold_both" }))
      yield* Effect.gen(function*() {
        const registry = yield* Registry
        yield* eventually(registry.channels([channelSelector({ id: exactly(action) })]), (found) => found.length === 1)
        expect(yield* fetchOne(action)).toEqual(Result.succeed(Option.none()))
        const changes = yield* changesDuring(
          Effect.promise(async () => {
            await bridge.press("study_switch", "")
            await bridge.press("study_switch", "double_left")
          }),
          (seen) => values(seen, action).length > 0
        )
        expect(values(changes, action)).toEqual([text("double_left")])
      }).pipe(Effect.provide(gatewayOn(url, baseTopic)))
    }).pipe(Effect.scoped))

  it.live("reads a colour bulb's xy and brightness as LightColor and writes xy in its /set", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        const color = yield* fetchOne(getter(bulb, "color"))
        // {"x": 0.4576, "y": 0.41} is a warm white (about 2,800 K): orange, a hue of about 30° at about 64 % saturation.
        const read = Option.getOrUndefined(Option.flatten(Option.fromUndefinedOr(color === undefined ? undefined : Result.getOrUndefined(color))))
        expect(read?._tag === "Color" ? [Math.round(read.h), Math.round(read.s * 100), read.v] : read).toEqual([30, 64, 1])
        const results = yield* sendAll([[setter(bulb, "color"), { _tag: "Color", h: 120, s: 1, v: 0.5 }]])
        expect(results.map((r) => r.result)).toEqual([Result.succeed(undefined)])
        const sent = yield* eventually(Effect.sync(() => bridge.raw.filter((r) => r.topic.endsWith("/hall_bulb/set"))), (r) => r.length > 0)
        expect(sent.map((r) => r.payload)).toEqual([`{"color":{"x":0.3,"y":0.6},"brightness":127}`])
      })
    ))

  it.live("reads a lock's lock_state and refuses an enum value the device does not list, sending nothing", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        expect(yield* fetchOne(getter(lock, "lock_state"))).toEqual(Result.succeed(Option.some(text("locked"))))
        const [refused] = yield* sendAll([[setter(bulb, "power_on_behavior"), text("sometimes")]])
        expect(refused?.result).toEqual(Result.fail({
          _tag: "DeviceFailure",
          message: `Zigbee2MQTT's power_on_behavior takes one of off, on, toggle, previous, not "sometimes"`
        }))
        yield* sendAll([[setter(bulb, "power_on_behavior"), text("previous")]])
        const sent = yield* eventually(Effect.sync(() => bridge.raw.filter((r) => r.topic.endsWith("/set"))), (r) => r.length > 0)
        expect(sent.map((r) => r.payload)).toEqual([`{"power_on_behavior":"previous"}`])
      })
    ))

  it.live("shows the bridge as a service, opens and closes joining with permit_join, and shows a device that joins", () =>
    withBridge((bridge) =>
      Effect.gen(function*() {
        const registry = yield* Registry
        const bridgeProperties = registry.services([{ ...anyService, id: exactly(bridgeService) }]).pipe(Effect.map(([s]) => s?.properties))
        expect(yield* bridgeProperties).toMatchObject({
          state: "online",
          version: "1.42.0",
          coordinator: "zStack3x0",
          coordinator_ieee_address: "0x00124b0000000000",
          permit_join: "false"
        })
        const permitJoin = ChannelId.make("setter:bridge.permit_join@zigbee2mqtt")
        const opened = yield* sendAll([[permitJoin, { _tag: "Duration", seconds: 60 }]])
        expect(opened.map((r) => r.result)).toEqual([Result.succeed(undefined)])
        yield* eventually(bridgeProperties, (p) => p?.["permit_join"] === "true")
        const tooLong = yield* sendAll([[permitJoin, { _tag: "Duration", seconds: 600 }]])
        expect(tooLong.map((r) => r.result)).toEqual([
          Result.fail({ _tag: "DeviceFailure", message: "Zigbee2MQTT permits joining for at most 254 s, not 600" })
        ])
        yield* sendAll([[permitJoin, { _tag: "Duration", seconds: 0 }]])
        yield* eventually(bridgeProperties, (p) => p?.["permit_join"] === "false")
        expect(bridge.raw.filter((r) => r.topic.endsWith("/bridge/request/permit_join")).map((r) => r.payload)).toEqual([
          `{"value":true,"time":60}`,
          `{"value":false,"time":0}`
        ])
        // A device joins: Zigbee2MQTT publishes the new device list, and the device is in, without a restart.
        const newcomer = "0x00158d0000000007"
        const [switchDevice] = bridgeDevices.filter((d) => d.friendly_name === "study_switch")
        if (switchDevice === undefined) throw new Error("no switch")
        yield* Effect.promise(() => bridge.join({ ...switchDevice, ieee_address: newcomer, friendly_name: "kitchen_switch" }, { battery: 80 }))
        expect(yield* eventually(serviceIds, (ids) => ids.includes(service(newcomer)))).toContain(service(newcomer))
      })
    ))
})

describe("a broker that goes away", () => {
  it.live("answers per-channel errors while it is down, then reconnects, resubscribes and resynchronises", () =>
    Effect.gen(function*() {
      const own = yield* Effect.acquireRelease(Effect.promise(() => startMosquitto()), (m) => Effect.promise(() => m.stop()))
      yield* withBridge((bridge) =>
        Effect.gen(function*() {
          yield* Effect.promise(() => own.stop())
          const read = yield* eventually(fetchOne(getter(light, "state")), (r) => r !== undefined && Result.isFailure(r))
          expect(read).toEqual(Result.fail({ _tag: "DeviceFailure", message: `the MQTT broker at ${own.url} is not reachable` }))
          const [written] = yield* sendAll([[setter(light, "state"), { _tag: "OnOff", state: "On" }]])
          expect(written?.result).toEqual(Result.fail({ _tag: "DeviceFailure", message: `the MQTT broker at ${own.url} is not reachable` }))
          // Still shown while the broker is away: the devices did not leave, the way to them did.
          expect(yield* serviceIds).toHaveLength(6)

          yield* Effect.promise(() => own.start())
          const back = yield* eventually(fetchOne(getter(light, "state")), (r) => r !== undefined && Result.isSuccess(r))
          expect(back).toEqual(Result.succeed(Option.some({ _tag: "OnOff", state: "Off" })))
          // Nothing sent while the broker was away arrives late.
          expect(bridge.received).toEqual([])
          // A change published after the restart is reported once; retained states delivered again are not news.
          const changes = yield* changesDuring(
            Effect.promise(() => bridge.publishState("front_door", { contact: false })),
            (seen) => values(seen, getter(door, "contact")).length > 0
          )
          expect(values(changes, getter(door, "contact"))).toEqual([{ _tag: "OpenClosed", state: "Open" }])
          expect(values(changes, getter(light, "state"))).toEqual([])
        }), own.url)
    }).pipe(Effect.scoped))
})

describe("logging in to the broker", () => {
  it.live("says why a refused login fails, and follows the bridge with the credentials in the URL", () =>
    Effect.gen(function*() {
      const locked = yield* Effect.acquireRelease(
        Effect.promise(() => startMosquitto({ users: { alice: "secret" } })),
        (m) => Effect.promise(() => m.stop())
      )
      const baseTopic = freshBaseTopic()
      yield* Effect.acquireRelease(
        Effect.promise(() => startFakeBridge(locked.url, { baseTopic, username: "alice", password: "secret" })),
        (b) => Effect.promise(() => b.close())
      )
      const withCredentials = (credentials: string) => locked.url.replace("mqtt://", `mqtt://${credentials}@`)

      const logged: Array<string> = []
      const capture = Logger.layer([Logger.make(({ message }) => void logged.push(String(message)))])
      const refused = yield* eventually(Effect.sync(() => logged), (lines) => lines.some((l) => l.startsWith("cannot connect"))).pipe(
        Effect.andThen(serviceIds),
        Effect.provide(gatewayOn(withCredentials("alice:wrong"), baseTopic, capture))
      )
      expect(refused).toEqual([])
      expect(logged).toContain(`cannot connect to the MQTT broker at ${locked.url}: Connection refused: Not authorized; retrying`)

      const admitted = yield* eventually(serviceIds, (ids) => ids.length === 6).pipe(
        Effect.provide(gatewayOn(withCredentials("alice:secret"), baseTopic))
      )
      expect(admitted).toHaveLength(6)
    }).pipe(Effect.scoped))
})
