import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Option } from "effect"
import { connectAsync, type MqttClient } from "mqtt"
import { anyService, channelSelector, Tag } from "../../../src/domain/index.ts"
import { Registry } from "../../../src/gateway/Registry.ts"
import { eventuallyAsync } from "../../support/eventually.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { type Mosquitto, startMosquitto } from "../../support/mosquitto.ts"
import { openWatch, type WatchClient } from "../../support/openWatch.ts"
import { parseScrape, sample } from "../../support/prometheusText.ts"
import { type FakeBridge, startFakeBridge } from "../../support/zigbee2mqttBridge.ts"

/**
 * The MQTT discovery adapter (`--mqtt-discovery`) in a whole gateway, over HTTP, against Debian's
 * mosquitto. Players publish what real devices publish:
 * - an ESPHome node (https://esphome.io/components/mqtt.html, "MQTT discovery"): abbreviated keys, a
 *   switch and a temperature sensor, `<node>/status` as availability (`online`/`offline`), states as
 *   plain payloads (`ON`, `21.5`);
 * - a Z-Wave JS UI lock (zwave-js-ui's api/hass/configurations.ts, `lock`): `state_locked: 255`,
 *   `payload_lock: 255`, `value_template: "{{ value_json.value }}"`, the value topic publishing
 *   `{"time": …, "value": 255}` and taking commands on `<value topic>/set`;
 * - Zigbee2MQTT with its Home Assistant output on (identifiers `zigbee2mqtt_<ieee_address>`).
 */

const prefix = `ha-${process.pid}`
const baseTopic = `z2m-${process.pid}`
const node = `esp-${process.pid}`

const esphomeDevice = { ids: "246f28a1b2c3", name: node, sw: "esphome v2024.2.0", mdl: "esp32dev", mf: "espressif" }
const relayConfig = {
  name: "Relay",
  stat_t: `${node}/switch/relay/state`,
  cmd_t: `${node}/switch/relay/command`,
  avty_t: `${node}/status`,
  uniq_id: "ESPswitchrelay",
  dev: esphomeDevice
}
const temperatureConfig = {
  dev_cla: "temperature",
  unit_of_meas: "°C",
  stat_cla: "measurement",
  name: "Temperature",
  "~": `${node}/sensor/temperature`,
  stat_t: "~/state",
  avty_t: `${node}/status`,
  uniq_id: "ESPsensortemperature",
  dev: esphomeDevice
}
const lockTopic = `zwave-${process.pid}/front_door/door_lock/endpoint_0/currentMode`
const lockConfig = {
  command_topic: `${lockTopic}/set`,
  state_topic: lockTopic,
  state_locked: 255,
  state_unlocked: 0,
  payload_lock: 255,
  payload_unlock: 0,
  value_template: "{{ value_json.value }}",
  device: { identifiers: ["zwavejs2mqtt_0xe7b2c3d4_node5"], manufacturer: "Yale", model: "YRD256", name: "front_door" },
  name: "front_door_lock",
  unique_id: "zwavejs2mqtt_0xe7b2c3d4_5-98-0-currentMode"
}

/** The ids of a channel or service of the adapter: `<identifier>.<component>.<object_id>`. */
const ofDiscovery = (what: "service" | "getter" | "setter", local: string) => `${what}:${local}@mqtt-discovery`
const esphome = ofDiscovery("service", "246f28a1b2c3")
const [relay, relaySetter] = [ofDiscovery("getter", "246f28a1b2c3.switch.relay"), ofDiscovery("setter", "246f28a1b2c3.switch.relay")]
const temperature = ofDiscovery("getter", "246f28a1b2c3.sensor.temperature")
const [lock, lockSetter] = [ofDiscovery("getter", "zwavejs2mqtt_0xe7b2c3d4_node5.lock.lock"), ofDiscovery("setter", "zwavejs2mqtt_0xe7b2c3d4_node5.lock.lock")]

let mosquitto: Mosquitto | undefined
let player: MqttClient | undefined
let bridge: FakeBridge | undefined
let gateway: GatewayOverHttp | undefined
/** Every message the player heard on the command and status topics, in order, as sent. */
const heard: Array<{ readonly topic: string; readonly payload: string }> = []

const started = () => {
  if (player === undefined || gateway === undefined) throw new Error("the suite did not start")
  return { player, gateway }
}
const publish = (topic: string, payload: unknown, retain = true) => {
  if (player === undefined) throw new Error("the player did not start")
  return player.publishAsync(topic, typeof payload === "string" ? payload : JSON.stringify(payload), { retain, qos: 1 })
}
const config = (component: string, path: string) => `${prefix}/${component}/${path}/config`
const call = (method: string, path: string, body?: unknown) => started().gateway.call(method, path, body)

beforeAll(async () => {
  // The player's session and subscriptions outlive a restart of the broker, and what is published to them
  // while it is away waits for it: it would hear a birth message (QoS 0, not retained) even one the
  // gateway sent as it reconnected first ("a broker that restarts" checks that none is sent).
  mosquitto = await startMosquitto({ queueQos0ForAbsentSessions: true })
  player = await connectAsync(mosquitto.url, { reconnectPeriod: 100, clean: false, clientId: "discovery-test-player" })
  player.on("message", (topic, payload) => heard.push({ topic, payload: payload.toString("utf8") }))
  await player.subscribeAsync([`${node}/switch/relay/command`, `${lockTopic}/set`, `${prefix}/status`])
  bridge = await startFakeBridge(mosquitto.url, { baseTopic })
  await publish(`${node}/status`, "online")
  await publish(config("switch", `${node}/relay`), relayConfig)
  await publish(config("sensor", `${node}/temperature`), temperatureConfig)
  await publish(`${node}/switch/relay/state`, "ON")
  await publish(`${node}/sensor/temperature/state`, "21.5")
  await publish(config("lock", "front_door/lock"), lockConfig)
  await publish(lockTopic, { time: 1_700_000_000_000, value: 255 })
  gateway = await startGateway({ adapter: "simulator@discovery.test", services: [] }, {
    mqtt: Option.some(mosquitto.url),
    mqttBaseTopic: baseTopic,
    mqttDiscovery: Option.some(prefix),
    deviceTimeoutMs: 3_000
  }, { captureLogs: true })
})
afterAll(async () => {
  await gateway?.close()
  await bridge?.close()
  await player?.endAsync()
  await mosquitto?.stop()
})

interface Listed {
  readonly id: string
  readonly kind?: unknown
  readonly properties?: Readonly<Record<string, string>>
  readonly getters?: ReadonlyArray<{ readonly id: string; readonly kind: unknown }>
  readonly setters?: ReadonlyArray<{ readonly id: string; readonly kind: unknown }>
  readonly inputs?: ReadonlyArray<{ readonly id: string; readonly mechanism: { readonly Get: { readonly kind: unknown } } }>
  readonly outputs?: ReadonlyArray<{ readonly id: string; readonly mechanism: { readonly Set: { readonly kind: unknown } } }>
}
const list = async (path: string, body?: unknown) => (await call("GET", path, body)).json as ReadonlyArray<Listed>
const serviceIds = async () => (await list("/api/v1/services")).map((s) => s.id)
const getterIds = async () => (await list("/api/v1/channels/getters")).map((g) => g.id)
const readB = async (id: string) => ((await call("GET", "/api/v1/channels/get", { id })).json as Record<string, unknown>)[id]
const readA = async (id: string) => {
  const [pair] = (await call("GET", "/api/v1/channels/value", [{ id: { Exactly: id } }])).json as ReadonlyArray<readonly [string, { readonly Ok?: unknown }]>
  return pair?.[1].Ok
}
const writeB = async (id: string, value: unknown) => (await call("PUT", "/api/v1/channels/set", { select: { id }, value })).json
const writeA = async (id: string, value: unknown) => (await call("POST", "/api/v1/channels/value", { set: [{ id: { Exactly: id } }], value })).json
/** The payloads heard on `topic` since `from` (an index into `heard`). */
const heardOn = (topic: string, from: number) => heard.slice(from).filter((m) => m.topic === topic).map((m) => m.payload)
const warnings = (text: string) => started().gateway.logs().filter((line) => line.startsWith("WARN") && line.includes(text))

/** Reads the watch socket until `enough` holds of what it sent. */
const readUntil = async (client: WatchClient, enough: (frames: ReadonlyArray<unknown>) => boolean) => {
  const frames: Array<unknown> = []
  while (!enough(frames)) frames.push(await client.next())
  return frames
}
const valuesOf = (frames: ReadonlyArray<unknown>, id: string) =>
  frames.flatMap((f) => {
    const value = (f as { readonly Value?: { readonly from: string; readonly value: unknown } }).Value
    return value?.from === id ? [value.value] : []
  })

const everythingIn = () => eventuallyAsync(getterIds, (ids) => [relay, temperature, lock].every((id) => ids.includes(id)))

/**
 * The retained states too: a getter is listed once its config is read and its state topic subscribed to,
 * and its retained state comes after that subscription, a moment later on a busy machine.
 */
const valuesIn = () => eventuallyAsync(() => Promise.all([relay, temperature, lock].map(readB)), (values) => values.every((v) => v !== null && v !== undefined))

describe("devices announced by MQTT discovery", () => {
  it("publishes no birth message when the broker holds retained configs: the home is learned from them, and no device announces itself again", async () => {
    await everythingIn()
    // Past the wait for retained configs after connecting (1 s), with a margin for a busy machine.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(heardOn(`${prefix}/status`, 0)).toEqual([])
  })

  it("lists an ESPHome node (abbreviated keys, `~`) and a Z-Wave JS UI lock with their kinds, in both vocabularies", async () => {
    await everythingIn()
    const [service] = await list("/api/v1/services", { id: esphome })
    expect(service?.properties).toMatchObject({ name: node, manufacturer: "espressif", model: "esp32dev", identifiers: "246f28a1b2c3" })
    expect(service?.getters?.map((g) => [g.id, g.kind])).toEqual([[temperature, "ActualTemperature"], [relay, "OnOff"]])
    expect(service?.setters?.map((s) => [s.id, s.kind])).toEqual([[relaySetter, "OnOff"]])
    const [zwave] = await list("/api/v1/services", { id: "service:zwavejs2mqtt_0xe7b2c3d4_node5@mqtt-discovery" })
    expect(zwave?.getters?.map((g) => [g.id, g.kind])).toEqual([[lock, "DoorLocked"]])
    expect(zwave?.setters?.map((s) => [s.id, s.kind])).toEqual([[lockSetter, "DoorLocked"]])
    const [nodeA] = await list("/api/v1/nodes", [{ id: { Exactly: esphome } }])
    expect(nodeA?.inputs?.map((c) => [c.id, c.mechanism.Get.kind])).toEqual([[temperature, { ActualTemperature: [] }], [relay, { OnOff: [] }]])
    expect(nodeA?.outputs?.map((c) => [c.id, c.mechanism.Set.kind])).toEqual([[relaySetter, { OnOff: [] }]])
  })

  it.each([
    { vocabulary: "B", read: readB },
    { vocabulary: "A", read: readA }
  ])("reads the switch, the temperature and the lock in vocabulary $vocabulary", async ({ read }) => {
    await everythingIn()
    await valuesIn()
    expect(await read(relay)).toEqual({ OnOff: "On" })
    expect(await read(temperature)).toEqual({ Temperature: { C: 21.5 } })
    expect(await read(lock)).toEqual({ DoorLocked: "Locked" })
  })

  it("writes the switch and the lock in both vocabularies, the command payloads byte for byte", async () => {
    await everythingIn()
    const from = heard.length
    expect(await writeB(relaySetter, { OnOff: "Off" })).toEqual({ [relaySetter]: null })
    expect(await writeA(relaySetter, { OnOff: "On" })).toEqual([[relaySetter, { Ok: null }]])
    expect(await writeB(lockSetter, { DoorLocked: "Unlocked" })).toEqual({ [lockSetter]: null })
    expect(await writeA(lockSetter, { DoorLocked: "Locked" })).toEqual([[lockSetter, { Ok: null }]])
    await eventuallyAsync(async () => heard.length - from, (n) => n >= 4)
    expect(heardOn(`${node}/switch/relay/command`, from)).toEqual(["OFF", "ON"])
    expect(heardOn(`${lockTopic}/set`, from)).toEqual(["0", "255"])
  })

  it.each(["b", "a"])("tells watchers in vocabulary %s what the devices publish", async (vocabulary) => {
    await everythingIn()
    const { gateway } = started()
    const client = await openWatch(gateway, `vocabulary=${vocabulary}`)
    try {
      client.send(vocabulary === "b"
        ? [{ select: [{ id: relay }, { id: lock }] }]
        : [relay, lock].map((id) => ({ source: { id: { Exactly: id } }, should_watch_values: true, should_watch_topology: true })))
      // The two getters' additions first.
      await readUntil(client, (frames) => frames.length >= 2)
      await publish(`${node}/switch/relay/state`, "OFF")
      await publish(lockTopic, { time: 1_700_000_000_001, value: 0 })
      const frames = await readUntil(client, (seen) => valuesOf(seen, relay).length + valuesOf(seen, lock).length >= 2)
      expect(valuesOf(frames, relay)).toEqual([{ OnOff: "Off" }])
      expect(valuesOf(frames, lock)).toEqual([{ DoorLocked: "Unlocked" }])
    } finally {
      await client.close()
      await publish(`${node}/switch/relay/state`, "ON")
      await publish(lockTopic, { time: 1_700_000_000_002, value: 255 })
    }
  })

  it("takes tags and scoped tokens like any device: a tagged service selected by its tag, a token that reaches its channels only", async () => {
    await everythingIn()
    expect((await call("POST", "/api/v1/services/tag", { services: [{ id: esphome }], tags: ["porch"] })).json).toEqual(1)
    expect((await list("/api/v1/channels/getters", { service_tags: ["porch"] })).map((g) => g.id).sort()).toEqual([temperature, relay].sort())
    const { token } = await started().gateway.createToken({
      scope: { channels: [channelSelector({ serviceTags: [Tag.make("porch")] })], rights: ["read"] }
    })
    const asScoped = async (body: unknown) =>
      JSON.parse((await send(`${started().gateway.baseUrl}/api/v1/channels/get`, {
        method: "GET",
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify(body)
      })).body) as unknown
    expect(await asScoped({ id: temperature })).toEqual({ [temperature]: { Temperature: { C: 21.5 } } })
    expect(await asScoped({ id: lock })).toEqual({ [lock]: { Error: { NoSuchGetter: lock } } })
  })

  it("takes a device's channels out while its availability topic says offline, and brings them back", async () => {
    await everythingIn()
    await publish(`${node}/status`, "offline")
    await eventuallyAsync(serviceIds, (ids) => !ids.includes(esphome))
    expect(await serviceIds()).not.toContain(esphome)
    expect(await getterIds()).toContain(lock)
    await publish(`${node}/status`, "online")
    await eventuallyAsync(getterIds, (ids) => ids.includes(relay) && ids.includes(temperature))
    expect(await readB(temperature)).toEqual({ Temperature: { C: 21.5 } })
  })

  it("removes an entity, then its device, when its config is emptied", async () => {
    await everythingIn()
    const extra = "ESP-extra"
    const device = { ids: "e5e5e5e5e5e5", name: "extra" }
    await publish(config("switch", "extra/plug"), { name: "Plug", cmd_t: "extra/switch/plug/command", uniq_id: `${extra}plug`, dev: device })
    await publish(config("binary_sensor", "extra/door"), { name: "Door", dev_cla: "door", stat_t: "extra/binary_sensor/door/state", uniq_id: `${extra}door`, dev: device })
    const door = "getter:e5e5e5e5e5e5.binary_sensor.door@mqtt-discovery"
    await eventuallyAsync(getterIds, (ids) => ids.includes(door))
    await publish("extra/binary_sensor/door/state", "ON")
    await eventuallyAsync(() => readB(door), (value) => value !== null)
    expect(await readB(door)).toEqual({ OpenClosed: "Open" })
    await publish(config("binary_sensor", "extra/door"), "")
    await eventuallyAsync(getterIds, (ids) => !ids.includes(door))
    expect(await serviceIds()).toContain("service:e5e5e5e5e5e5@mqtt-discovery")
    await publish(config("switch", "extra/plug"), "")
    await eventuallyAsync(serviceIds, (ids) => !ids.includes("service:e5e5e5e5e5e5@mqtt-discovery"))
    expect(await serviceIds()).not.toContain("service:e5e5e5e5e5e5@mqtt-discovery")
  })

  it("lists a Zigbee2MQTT device that is also announced by discovery once, as Zigbee2MQTT's", async () => {
    await everythingIn()
    const door = "0x00158d0000000002"
    // Zigbee2MQTT's Home Assistant output for its door sensor (MCCGQ11LM).
    await publish(config("binary_sensor", `${door}/contact`), {
      availability: [{ topic: `${baseTopic}/bridge/state`, value_template: "{{ value_json.state }}" }],
      device: { identifiers: [`zigbee2mqtt_${door}`], manufacturer: "Aqara", model: "Door and window sensor", name: "front_door" },
      device_class: "door",
      payload_off: true,
      payload_on: false,
      state_topic: `${baseTopic}/front_door`,
      unique_id: `${door}_contact_zigbee2mqtt`,
      value_template: "{{ value_json.contact }}"
    })
    await eventuallyAsync(serviceIds, (ids) => ids.includes(`service:${door}@zigbee2mqtt`))
    // The marker: a config published after the Zigbee2MQTT one is in, so that one was read before.
    await publish(config("switch", "marker/x"), { cmd_t: "marker/x/set", uniq_id: "marker", dev: { ids: "marker" } })
    await eventuallyAsync(serviceIds, (ids) => ids.includes("service:marker@mqtt-discovery"))
    expect((await serviceIds()).filter((id) => id.includes(door))).toEqual([`service:${door}@zigbee2mqtt`])
  })

  it("leaves a malformed config out, says why once, and goes on serving the rest", async () => {
    await everythingIn()
    const malformed = [
      [config("switch", "bad/json"), "{not json"],
      [config("vacuum", "bad/robot"), { cmd_t: "bad/robot/set", uniq_id: "robot", dev: { ids: "bad-robot" } }],
      [config("switch", "bad/no_command"), { stat_t: "bad/no_command/state", uniq_id: "nocmd", dev: { ids: "bad-switch" } }],
      [config("sensor", "bad/filtered"), {
        stat_t: "bad/filtered/state",
        val_tpl: "{{ value_json.temperature | round(1) }}",
        unit_of_meas: "°C",
        uniq_id: "filtered",
        dev: { ids: "bad-sensor" }
      }],
      [config("switch", "bad/long_id"), { cmd_t: "bad/long_id/set", dev: { ids: `bad-${"x".repeat(300)}` } }]
    ] as const
    for (const round of [1, 2]) {
      for (const [topic, payload] of malformed) await publish(topic, payload, round === 1)
    }
    await eventuallyAsync(async () => warnings("bad/filtered").length, (n) => n > 0)
    await publish(config("switch", "marker/y"), { cmd_t: "marker/y/set", uniq_id: "marker-y", dev: { ids: "marker-y" } })
    await eventuallyAsync(serviceIds, (ids) => ids.includes("service:marker-y@mqtt-discovery"))
    expect(warnings(config("switch", "bad/json"))).toEqual([`WARN ignoring the MQTT discovery config on ${config("switch", "bad/json")}: it is not JSON`])
    expect(warnings(config("vacuum", "bad/robot"))).toEqual([
      `WARN ignoring the MQTT discovery config on ${config("vacuum", "bad/robot")}: the component vacuum is not one the gateway reads`
    ])
    expect(warnings(config("switch", "bad/no_command"))).toEqual([
      `WARN ignoring the MQTT discovery config on ${config("switch", "bad/no_command")}: it has no command_topic`
    ])
    expect(warnings(config("sensor", "bad/filtered"))).toEqual([
      `WARN MQTT discovery leaves out a channel of ${config("sensor", "bad/filtered")}: its value_template: {{ value_json.temperature | round(1) }} is not a plain JSON path ({{ value_json.x }})`
    ])
    expect(warnings(config("switch", "bad/long_id"))).toEqual([
      `WARN ignoring the MQTT discovery config on ${config("switch", "bad/long_id")}: its ids would be longer than 256 characters or hold control characters`
    ])
    expect((await serviceIds()).filter((id) => id.includes("bad-"))).toEqual([])
    expect(await readB(temperature)).toEqual({ Temperature: { C: 21.5 } })
    expect(await readB(lock)).toEqual({ DoorLocked: "Locked" })
  })
})

describe("the other components", () => {
  const desk = `desk-${process.pid}`
  const deskDevice = { ids: "a0b1c2d3e4f5", name: desk, mf: "espressif", mdl: "esp32dev" }
  const id = (kind: "getter" | "setter", local: string) => `${kind}:a0b1c2d3e4f5.${local}@mqtt-discovery`

  /** Publishes the configs (and retained states) of `entities`, and waits until `getters` and `setters` are listed. */
  const announce = async (
    entities: ReadonlyArray<readonly [string, unknown]>,
    states: ReadonlyArray<readonly [string, unknown]>,
    channels: ReadonlyArray<string>
  ) => {
    for (const [topic, payload] of [...entities, ...states]) await publish(topic, payload)
    await eventuallyAsync(async () => [...await getterIds(), ...(await list("/api/v1/channels/setters")).map((s) => s.id)], (ids) =>
      channels.every((c) => ids.includes(c)))
  }
  /** Once the retained state of `getter` is in (it comes after the config, on the state topic's subscription). */
  const stateIn = (getter: string) => eventuallyAsync(() => readB(getter), (value) => value !== null)

  it("reads and writes an ESPHome light of the json schema in rgb: on/off and its colour, with the brightness as v", async () => {
    await everythingIn()
    // ESPHome's light discovery (schema json, colour mode rgb) and the state it publishes.
    await announce([[config("light", `${desk}/desk_lamp`), {
      name: "Desk lamp",
      stat_t: `${desk}/light/desk_lamp/state`,
      cmd_t: `${desk}/light/desk_lamp/command`,
      schema: "json",
      brightness: true,
      color_mode: true,
      supported_color_modes: ["rgb"],
      uniq_id: "ESPlightdesk_lamp",
      dev: deskDevice
    }]], [[`${desk}/light/desk_lamp/state`, { state: "ON", color_mode: "rgb", brightness: 255, color: { r: 255, g: 0, b: 0 } }]], [
      id("getter", "light.desk_lamp"),
      id("getter", "light.desk_lamp.color")
    ])
    await stateIn(id("getter", "light.desk_lamp"))
    expect(await readB(id("getter", "light.desk_lamp"))).toEqual({ OnOff: "On" })
    expect(await readA(id("getter", "light.desk_lamp.color"))).toEqual({ Color: { h: 0, s: 1, v: 1 } })
    await player?.subscribeAsync(`${desk}/light/desk_lamp/command`)
    const from = heard.length
    expect(await writeB(id("setter", "light.desk_lamp.color"), { Color: { h: 120, s: 1, v: 0.5 } })).toEqual({ [id("setter", "light.desk_lamp.color")]: null })
    expect(await writeA(id("setter", "light.desk_lamp"), { OnOff: "Off" })).toEqual([[id("setter", "light.desk_lamp"), { Ok: null }]])
    await eventuallyAsync(async () => heardOn(`${desk}/light/desk_lamp/command`, from).length, (n) => n >= 2)
    expect(heardOn(`${desk}/light/desk_lamp/command`, from)).toEqual([
      `{"state":"ON","color":{"r":0,"g":255,"b":0},"brightness":128}`,
      `{"state":"OFF"}`
    ])
  })

  it("reads and writes a light of the default schema: on/off, the brightness and the colour in hs, each on its own topics", async () => {
    await everythingIn()
    // Home Assistant's default-schema light (integrations/light.mqtt), in abbreviated keys.
    const office = `${desk}/office`
    await announce([[config("light", `${desk}/office`), {
      name: "Office",
      "~": office,
      stat_t: "~/status",
      cmd_t: "~/switch",
      bri_stat_t: "~/brightness",
      bri_cmd_t: "~/brightness/set",
      hs_stat_t: "~/hs",
      hs_cmd_t: "~/hs/set",
      uniq_id: "office_light",
      dev: { ids: "a0b1c2d3e4f5" }
    }]], [[`${office}/status`, "ON"], [`${office}/brightness`, "128"], [`${office}/hs`, "240,50"]], [id("getter", "light.office.color")])
    for (const part of ["", ".brightness", ".color"]) await stateIn(id("getter", `light.office${part}`))
    expect(await readB(id("getter", "light.office"))).toEqual({ OnOff: "On" })
    expect(await readA(id("getter", "light.office.brightness"))).toMatchObject({ ExtNumeric: { value: 128, kind: "brightness" } })
    expect(await readB(id("getter", "light.office.color"))).toEqual({ Color: { h: 240, s: 0.5, v: 1 } })
    await player?.subscribeAsync([`${office}/switch`, `${office}/hs/set`, `${office}/brightness/set`])
    const from = heard.length
    expect(await writeA(id("setter", "light.office.color"), { Color: { h: 120, s: 1, v: 0.3 } })).toEqual([[id("setter", "light.office.color"), { Ok: null }]])
    expect(await writeB(id("setter", "light.office"), { OnOff: "Off" })).toEqual({ [id("setter", "light.office")]: null })
    await eventuallyAsync(async () => heard.length - from, (n) => n >= 2)
    expect(heardOn(`${office}/hs/set`, from)).toEqual(["120,100"])
    expect(heardOn(`${office}/switch`, from)).toEqual(["OFF"])
  })

  it("presses an ESPHome button: a write of Unit sends its payload_press", async () => {
    await everythingIn()
    await announce([[config("button", `${desk}/restart`), {
      name: "Restart",
      cmd_t: `${desk}/button/restart/command`,
      dev_cla: "restart",
      uniq_id: "ESPbuttonrestart",
      dev: deskDevice
    }]], [], [id("setter", "button.restart")])
    const [setter] = await list("/api/v1/channels/setters", { id: id("setter", "button.restart") })
    expect(setter?.kind).toEqual({ vendor: "mqtt-discovery", adapter: "mqtt-discovery@gateway.local", kind: "restart", type: "Unit" })
    await player?.subscribeAsync(`${desk}/button/restart/command`)
    const from = heard.length
    expect(await writeB(id("setter", "button.restart"), { Unit: null })).toEqual({ [id("setter", "button.restart")]: null })
    await eventuallyAsync(async () => heardOn(`${desk}/button/restart/command`, from).length, (n) => n >= 1)
    expect(heardOn(`${desk}/button/restart/command`, from)).toEqual(["PRESS"])
  })

  it("reads and writes a climate entity: the room's temperature, the setpoint as Thermostat and the mode", async () => {
    await everythingIn()
    // Home Assistant's documented example of an MQTT HVAC (integrations/climate.mqtt), on this device.
    const hvac = `${desk}/hvac`
    await announce([[config("climate", `${desk}/hvac`), {
      name: "Study",
      current_temperature_topic: `${hvac}/current_temperature`,
      temperature_state_topic: `${hvac}/target_temperature`,
      temperature_command_topic: `${hvac}/target_temperature/set`,
      mode_state_topic: `${hvac}/mode`,
      mode_command_topic: `${hvac}/mode/set`,
      modes: ["off", "heat"],
      min_temp: 5,
      max_temp: 30,
      unique_id: "study_hvac",
      device: { identifiers: ["a0b1c2d3e4f5"] }
    }]], [[`${hvac}/current_temperature`, "19.5"], [`${hvac}/target_temperature`, "21"], [`${hvac}/mode`, "heat"]], [
      id("getter", "climate.hvac.current_temperature"),
      id("getter", "climate.hvac.temperature"),
      id("getter", "climate.hvac.mode")
    ])
    for (const part of ["current_temperature", "temperature", "mode"]) await stateIn(id("getter", `climate.hvac.${part}`))
    expect(await readB(id("getter", "climate.hvac.current_temperature"))).toEqual({ Temperature: { C: 19.5 } })
    expect(await readA(id("getter", "climate.hvac.temperature"))).toEqual({ Temperature: { C: 21 } })
    expect(await readB(id("getter", "climate.hvac.mode"))).toEqual({ String: "heat" })
    const [service] = await list("/api/v1/services", { id: "service:a0b1c2d3e4f5@mqtt-discovery" })
    expect(service?.properties).toMatchObject({ "climate.hvac.temperature_min": "5", "climate.hvac.temperature_max": "30" })
    await player?.subscribeAsync([`${hvac}/target_temperature/set`, `${hvac}/mode/set`])
    const from = heard.length
    expect(await writeB(id("setter", "climate.hvac.temperature"), { Temperature: { C: 22.5 } })).toEqual({ [id("setter", "climate.hvac.temperature")]: null })
    expect(await writeA(id("setter", "climate.hvac.mode"), { String: "off" })).toEqual([[id("setter", "climate.hvac.mode"), { Ok: null }]])
    await eventuallyAsync(async () => heard.length - from, (n) => n >= 2)
    expect(heardOn(`${hvac}/target_temperature/set`, from)).toEqual(["22.5"])
    expect(heardOn(`${hvac}/mode/set`, from)).toEqual(["off"])
  })

  it("reads and writes a Z-Wave JS UI dimmer: its Jinja state template leaves the on/off getter out, the brightness stays", async () => {
    await everythingIn()
    // zwave-js-ui's api/hass/configurations.ts, `light_dimmer`, on a multilevel switch's value topic.
    const value = `zwave-${process.pid}/hall/switch_multilevel/endpoint_0/currentValue`
    const stateTemplate = `{{ "OFF" if value_json.value == 0 else "ON" }}`
    const topic = config("light", "hall/dimmer")
    await announce([[topic, {
      command_topic: `${value}/set`,
      state_topic: value,
      state_value_template: stateTemplate,
      brightness_command_topic: `${value}/set`,
      brightness_scale: 99,
      brightness_state_topic: value,
      brightness_value_template: "{{ value_json.value }}",
      on_command_type: "brightness",
      device: { identifiers: ["zwavejs2mqtt_0xe7b2c3d4_node7"], name: "hall" },
      unique_id: "zwavejs2mqtt_0xe7b2c3d4_7-38-0-currentValue"
    }]], [[value, { time: 1_700_000_000_000, value: 40 }]], ["getter:zwavejs2mqtt_0xe7b2c3d4_node7.light.dimmer.brightness@mqtt-discovery"])
    const brightness = "getter:zwavejs2mqtt_0xe7b2c3d4_node7.light.dimmer.brightness@mqtt-discovery"
    await stateIn(brightness)
    expect(await readB(brightness)).toEqual({ ExtNumeric: { value: 40, vendor: "mqtt-discovery", adapter: "mqtt-discovery@gateway.local", kind: "brightness" } })
    const [service] = await list("/api/v1/services", { id: "service:zwavejs2mqtt_0xe7b2c3d4_node7@mqtt-discovery" })
    expect(service?.getters?.map((g) => g.id)).toEqual([brightness])
    expect(service?.setters?.map((s) => s.id).sort()).toEqual([
      "setter:zwavejs2mqtt_0xe7b2c3d4_node7.light.dimmer.brightness@mqtt-discovery",
      "setter:zwavejs2mqtt_0xe7b2c3d4_node7.light.dimmer@mqtt-discovery"
    ])
    expect(service?.properties).toMatchObject({ "light.dimmer.brightness_max": "99" })
    expect(warnings(topic)).toEqual([
      `WARN MQTT discovery leaves out a channel of ${topic}: its state_value_template: ${stateTemplate} is not a plain JSON path ({{ value_json.x }})`
    ])
    await player?.subscribeAsync(`${value}/set`)
    const from = heard.length
    const setter = "setter:zwavejs2mqtt_0xe7b2c3d4_node7.light.dimmer.brightness@mqtt-discovery"
    const level = { ExtNumeric: { value: 99, vendor: "mqtt-discovery", adapter: "mqtt-discovery@gateway.local", kind: "brightness" } }
    expect(await writeB(setter, level)).toEqual({ [setter]: null })
    await eventuallyAsync(async () => heardOn(`${value}/set`, from).length, (n) => n >= 1)
    expect(heardOn(`${value}/set`, from)).toEqual(["99"])
  })

  it("reads and writes a cover: open or closed, and its position", async () => {
    await everythingIn()
    // Home Assistant's documented example of an MQTT cover (integrations/cover.mqtt), abbreviated.
    const blind = `${desk}/blind`
    await announce([[config("cover", `${desk}/blind`), {
      name: "Blind",
      "~": blind,
      cmd_t: "~/set",
      stat_t: "~/state",
      pos_t: "~/position",
      set_pos_t: "~/position/set",
      uniq_id: "desk_blind",
      dev: { ids: "a0b1c2d3e4f5" }
    }]], [[`${blind}/state`, "open"], [`${blind}/position`, "60"]], [id("getter", "cover.blind"), id("getter", "cover.blind.position")])
    await stateIn(id("getter", "cover.blind"))
    await stateIn(id("getter", "cover.blind.position"))
    expect(await readA(id("getter", "cover.blind"))).toEqual({ OpenClosed: "Open" })
    expect(await readB(id("getter", "cover.blind.position"))).toMatchObject({ ExtNumeric: { value: 60, kind: "position" } })
    await player?.subscribeAsync([`${blind}/set`, `${blind}/position/set`])
    const from = heard.length
    expect(await writeA(id("setter", "cover.blind"), { OpenClosed: "Closed" })).toEqual([[id("setter", "cover.blind"), { Ok: null }]])
    const position = { ExtNumeric: { value: 25, vendor: "mqtt-discovery", adapter: "mqtt-discovery@gateway.local", kind: "position" } }
    expect(await writeB(id("setter", "cover.blind.position"), position)).toEqual({ [id("setter", "cover.blind.position")]: null })
    await eventuallyAsync(async () => heard.length - from, (n) => n >= 2)
    expect(heardOn(`${blind}/set`, from)).toEqual(["CLOSE"])
    expect(heardOn(`${blind}/position/set`, from)).toEqual(["25"])
  })

  it.each(["b", "a"])("hears each event of an event entity and of a device trigger, the same twice included, in vocabulary %s", async (vocabulary) => {
    await everythingIn()
    // Home Assistant's documented doorbell event (integrations/event.mqtt), and a Tasmota-style button trigger.
    await announce([
      [config("event", `${desk}/doorbell`), {
        name: "Doorbell",
        state_topic: `${desk}/doorbell/events`,
        event_types: ["press", "hold"],
        device_class: "doorbell",
        unique_id: "desk_doorbell",
        device: { identifiers: ["a0b1c2d3e4f5"] }
      }],
      [config("device_automation", `${desk}/button_1_single`), {
        automation_type: "trigger",
        topic: `${desk}/button/1/action`,
        type: "button_short_press",
        subtype: "button_1",
        payload: "SINGLE",
        device: { identifiers: ["a0b1c2d3e4f5"] }
      }]
    ], [], [id("getter", "event.doorbell"), id("getter", "device_automation.button_1_single")])
    const event = id("getter", "event.doorbell")
    const trigger = id("getter", "device_automation.button_1_single")
    const client = await openWatch(started().gateway, `vocabulary=${vocabulary}`)
    try {
      client.send(vocabulary === "b"
        ? [{ select: [{ id: event }, { id: trigger }] }]
        : [event, trigger].map((id) => ({ source: { id: { Exactly: id } }, should_watch_values: true, should_watch_topology: true })))
      await readUntil(client, (frames) => frames.length >= 2)
      // `ring` is not among its event_types: Home Assistant drops it, and so does the gateway.
      for (const type of ["press", "ring", "press", "hold"]) await publish(`${desk}/doorbell/events`, { event_type: type }, false)
      for (const payload of ["SINGLE", "DOUBLE", "SINGLE"]) await publish(`${desk}/button/1/action`, payload, false)
      const frames = await readUntil(client, (seen) => valuesOf(seen, event).length >= 3 && valuesOf(seen, trigger).length >= 2)
      expect(valuesOf(frames, event)).toEqual([{ String: "press" }, { String: "press" }, { String: "hold" }])
      expect(valuesOf(frames, trigger)).toEqual([{ String: "SINGLE" }, { String: "SINGLE" }])
      expect(await readB(event)).toEqual({ String: "hold" })
    } finally {
      await client.close()
    }
  })
})

describe("a large home", () => {
  /** Entity `i` of the home: a plug on a device of its own, available while `work-<i>/status` says online. */
  const plug = (i: number) => [config("switch", `work/plug_${i}`), {
    name: "Plug",
    cmd_t: `work-${process.pid}/${i}/set`,
    stat_t: `work-${process.pid}/${i}/state`,
    avty_t: `work-${process.pid}/${i}/status`,
    uniq_id: `work-plug-${i}`,
    dev: { ids: `work-${i}` }
  }] as const
  /**
   * How many plugs the home holds, asked of the registry in process: a wait polls it every 50 ms, and a
   * listing of a thousand services over HTTP, encoded and parsed at each poll, was most of the test's CPU.
   */
  const workServices = async () =>
    (await started().gateway.run(Registry.use((registry) => registry.services([anyService])))).filter((s) => s.id.startsWith("service:work-")).length
  /** Retained: the gateway subscribes to the status topic once it has the config. */
  const online = (i: number) => publish(`work-${process.pid}/${i}/status`, "online")
  /**
   * Publishes the plugs `from` to `to` (excluded), online, and waits until the home lists `to` of them.
   * Sent at once: one client's messages reach the broker in the order sent, each status before its config,
   * and waiting for each acknowledgement in turn was a round trip per message.
   */
  const grow = async (from: number, to: number) => {
    const range = Array.from({ length: to - from }, (_, k) => from + k)
    await Promise.all(range.flatMap((i) => [online(i), publish(...plug(i), false)]))
    await eventuallyAsync(workServices, (n) => n === to)
  }
  const compared = async () => {
    const reply = await send(`${started().gateway.baseUrl}/metrics`, { headers: { authorization: `Bearer ${started().gateway.token}` } })
    return sample(parseScrape(reply.body), "gateway_mqtt_services_compared_total", { adapter: "mqtt-discovery@gateway.local" })
  }
  /** The services compared for one more config (a new device), and for two availability messages that take a device out and back. */
  const workOfMessages = async (size: number) => {
    await online(size)
    const before = await compared()
    await publish(...plug(size), false)
    await eventuallyAsync(workServices, (n) => n === size + 1)
    const afterConfig = await compared()
    await publish(`work-${process.pid}/0/status`, "offline", false)
    await eventuallyAsync(workServices, (n) => n === size)
    await publish(`work-${process.pid}/0/status`, "online", false)
    await eventuallyAsync(workServices, (n) => n === size + 1)
    const afterAvailability = await compared()
    // Back as it was.
    await publish(config("switch", `work/plug_${size}`), "", false)
    await eventuallyAsync(workServices, (n) => n === size)
    return { config: afterConfig - before, availability: afterAvailability - afterConfig }
  }

  // The counter is exact, so two sizes ten times apart show that a message's work does not grow with the
  // home; a thousand entities proved no more, and growing them was most of this file's CPU.
  it("compares as many services for a config or an availability message in a home of 300 entities as in one of 30", async () => {
    await everythingIn()
    await grow(0, 30)
    expect(await workServices()).toBe(30)
    const small = await workOfMessages(30)
    await grow(30, 300)
    expect(await workServices()).toBe(300)
    const large = await workOfMessages(300)
    // Before, each message compared every service of the home.
    expect(large).toEqual(small)
    expect(small).toEqual({ config: 1, availability: 1 })
    await Promise.all(Array.from({ length: 301 }, (_, i) => [
      publish(config("switch", `work/plug_${i}`), "", false),
      publish(`work-${process.pid}/${i}/status`, "")
    ]).flat())
    await eventuallyAsync(workServices, (n) => n === 0)
    expect(await workServices()).toBe(0)
  }, 120_000)

  it("remembers a warning by its first 256 characters, and quotes at most 256 characters of a 1 MiB template", async () => {
    await everythingIn()
    const template = `{{ value_json.a | round(1) }}${"x".repeat(1024 * 1024)}`
    const topic = config("sensor", "huge/template")
    await publish(topic, { stat_t: "huge/state", val_tpl: template, uniq_id: "huge", dev: { ids: "huge-template" } }, false)
    await publish(topic, { stat_t: "huge/state", val_tpl: `${template}y`, uniq_id: "huge", dev: { ids: "huge-template" } }, false)
    await eventuallyAsync(async () => warnings(topic).length, (n) => n > 0)
    await publish(config("switch", "marker/z"), { cmd_t: "marker/z/set", uniq_id: "marker-z", dev: { ids: "marker-z" } })
    await eventuallyAsync(serviceIds, (ids) => ids.includes("service:marker-z@mqtt-discovery"))
    const [line, ...more] = warnings(topic)
    // The two templates differ only after their first 256 characters: quoted alike, they are one warning.
    expect(more).toEqual([])
    const quotedTemplate = /its (val_tpl|value_template): (.*) is not a plain JSON path/.exec(line ?? "")?.[2] ?? ""
    expect(quotedTemplate).toEqual(`${`value_template: ${template}`.slice(0, 255)}…`.slice("value_template: ".length))
    expect(line?.length).toBeLessThan(600)
  })
})

describe("a broker that restarts", () => {
  it("is said in /health for each connection while away; back, learns the home again from the retained configs, with no birth message, and serves it as before", async () => {
    await everythingIn()
    if (mosquitto === undefined) throw new Error("mosquitto did not start")
    const from = heard.length
    await mosquitto.stop()
    // Both adapters lost it; /health says so for each connection.
    const health = async () => (await call("GET", "/health")).json as { readonly status: string; readonly reasons?: ReadonlyArray<string> }
    const url = mosquitto.url
    await eventuallyAsync(health, (h) => (h.reasons ?? []).filter((reason) => reason.includes(url)).length === 2)
    expect((await health()).reasons?.filter((reason) => reason.includes(url))).toEqual([
      expect.stringMatching(new RegExp(`^the Zigbee2MQTT connection to the MQTT broker at ${url} is not up: `)),
      expect.stringMatching(new RegExp(`^the MQTT discovery connection to the MQTT broker at ${url} is not up: `))
    ])
    await mosquitto.start()
    await eventuallyAsync(() => readB(temperature), (value) => value !== null && typeof value === "object" && "Temperature" in value)
    expect(await readB(temperature)).toEqual({ Temperature: { C: 21.5 } })
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(heardOn(`${prefix}/status`, from)).toEqual([])
    // Each connection had lasted: back, they are steady at once.
    expect(await health()).toEqual({ status: "ok" })
  })
})
