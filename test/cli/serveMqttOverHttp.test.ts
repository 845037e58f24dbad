import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { connectAsync, type MqttClient } from "mqtt"
import { eventuallyAsync } from "../support/eventually.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { send } from "../support/httpRequest.ts"
import { type Mosquitto, startMosquitto } from "../support/mosquitto.ts"
import { openWatch, type WatchClient } from "../support/openWatch.ts"
import { bridgeDevices, type FakeBridge, ieee, startFakeBridge } from "../support/zigbee2mqttBridge.ts"

/**
 * A gateway (what `gateway serve --mqtt URL --mqtt-base-topic TOPIC` runs, on the built-in demo home;
 * serveMqtt.test.ts starts that process) following the test bridge on mosquitto, seen only from
 * outside: its REST answers in both vocabularies and its watch socket. A second gateway follows a
 * bridge that never answers a `/get`, with a short `--device-timeout`. Both run in this process: what
 * is tested is what they answer, not the process.
 */

const { light, door, thermostat, lock, button, bulb } = ieee
const getter = (ieee: string, property: string) => `getter:${ieee}.${property}@zigbee2mqtt`
const setter = (ieee: string, property: string) => `setter:${ieee}.${property}@zigbee2mqtt`
const service = (ieee: string) => `service:${ieee}@zigbee2mqtt`
const services = [light, door, thermostat, lock, button, bulb].map(service)
/** Zigbee2MQTT itself, a service of the adapter too. */
const bridgeService = "service:bridge@zigbee2mqtt"

const adapter = "zigbee2mqtt@gateway.local"
/** Vocabulary B's form of a kind: a builtin's name, or an extension object. */
type Kind = string | { readonly vendor: string; readonly adapter: string; readonly kind: string; readonly type: string }
const extension = (kind: string, type: "ExtNumeric" | "ExtBool" | "String" | "Duration"): Kind => ({ vendor: "zigbee2mqtt", adapter, kind, type })
/** Vocabulary A's form of the same kind. */
const inA = (kind: Kind) => (typeof kind === "string" ? { [kind]: [] } : { Extension: kind })

/** Every channel of the bridge's six devices and its kind (docs/adapters/mqtt.md, "From exposes to kinds"). */
const getterKinds: Readonly<Record<string, Kind>> = {
  [getter(light, "state")]: "OnOff",
  [getter(light, "color")]: "LightColor",
  [getter(light, "color_temp")]: extension("color_temp", "ExtNumeric"),
  [getter(light, "linkquality")]: extension("linkquality", "ExtNumeric"),
  [getter(door, "contact")]: "OpenClosed",
  [getter(door, "battery")]: extension("battery", "ExtNumeric"),
  [getter(door, "device_temperature")]: extension("device_temperature", "ExtNumeric"),
  [getter(door, "battery_low")]: extension("battery_low", "ExtBool"),
  [getter(thermostat, "local_temperature")]: "ActualTemperature",
  [getter(thermostat, "current_heating_setpoint")]: "Thermostat",
  [getter(thermostat, "system_mode")]: extension("system_mode", "String"),
  [getter(lock, "state")]: "DoorLocked",
  [getter(lock, "lock_state")]: extension("lock_state", "String"),
  [getter(button, "battery")]: extension("battery", "ExtNumeric"),
  [getter(button, "voltage")]: extension("voltage", "ExtNumeric"),
  [getter(button, "action")]: extension("action", "String"),
  [getter(button, "linkquality")]: extension("linkquality", "ExtNumeric"),
  [getter(bulb, "state")]: "OnOff",
  [getter(bulb, "color")]: "LightColor",
  [getter(bulb, "power_on_behavior")]: extension("power_on_behavior", "String"),
  [getter(bulb, "linkquality")]: extension("linkquality", "ExtNumeric")
}
const setterKinds: Readonly<Record<string, Kind>> = {
  [setter(light, "state")]: "OnOff",
  [setter(light, "color")]: "LightColor",
  [setter(light, "color_temp")]: extension("color_temp", "ExtNumeric"),
  [setter(light, "effect")]: extension("effect", "String"),
  [setter(thermostat, "current_heating_setpoint")]: "Thermostat",
  [setter(thermostat, "system_mode")]: extension("system_mode", "String"),
  [setter(lock, "state")]: "DoorLocked",
  [setter(bulb, "state")]: "OnOff",
  [setter(bulb, "color")]: "LightColor",
  [setter(bulb, "power_on_behavior")]: extension("power_on_behavior", "String"),
  // The bridge's.
  "setter:bridge.permit_join@zigbee2mqtt": extension("permit_join", "Duration")
}
const gettersOf = (ieee: string) => Object.keys(getterKinds).filter((id) => id.includes(ieee)).sort()

let mosquitto: Mosquitto | undefined
let bridge: FakeBridge | undefined
let gateway: GatewayOverHttp | undefined
let silentBridge: SilentBridge | undefined
let silentGateway: GatewayOverHttp | undefined
const silentTimeoutMs = 300

beforeAll(async () => {
  mosquitto = await startMosquitto()
  const url = mosquitto.url
  ;[bridge, silentBridge] = await Promise.all([startFakeBridge(url, { baseTopic: "house" }), startSilentBridge(url, "silent")])
  const following = (baseTopic: string) => ({ home: Option.none(), mqtt: Option.some(url), mqttBaseTopic: baseTopic })
  ;[gateway, silentGateway] = await Promise.all([
    startGateway({}, following("house")),
    startGateway({}, { ...following("silent"), deviceTimeoutMs: silentTimeoutMs })
  ])
})

afterAll(async () => {
  await Promise.all([gateway?.close(), silentGateway?.close()])
  await Promise.all([bridge?.close(), silentBridge?.close()])
  await mosquitto?.stop()
})

const started = (running: GatewayOverHttp | undefined) => {
  if (running === undefined) throw new Error("the gateway did not start")
  return { baseUrl: running.baseUrl, token: running.token }
}

/** One request as admin (a body is sent as JSON, GET included); status and parsed JSON. */
const call = async (running: GatewayOverHttp | undefined, method: string, path: string, body?: unknown) => {
  const { baseUrl, token } = started(running)
  const reply = await send(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    timeoutMs: 10_000
  })
  return { status: reply.status, json: reply.body === "" ? undefined : (JSON.parse(reply.body) as unknown) }
}

interface Listed {
  readonly id: string
  readonly adapter?: string
  readonly kind?: Kind
  readonly inputs?: ReadonlyArray<{ readonly id: string; readonly mechanism: { readonly Get: { readonly kind: unknown } } }>
  readonly outputs?: ReadonlyArray<{ readonly id: string; readonly mechanism: { readonly Set: { readonly kind: unknown } } }>
}
const list = async (running: GatewayOverHttp | undefined, path: string): Promise<ReadonlyArray<Listed>> => {
  const { status, json } = await call(running, "GET", path)
  expect({ path, status }).toEqual({ path, status: 200 })
  return json as ReadonlyArray<Listed>
}

/** Once every device of the bridge is listed with its channels (devices come in a moment after the start). */
const everyDeviceIn = (running: GatewayOverHttp | undefined, channels: number) =>
  eventuallyAsync(
    () => list(running, "/api/v1/channels/getters"),
    (getters) => getters.filter((g) => g.adapter === adapter).length === channels
  )

describe("the bridge's devices over HTTP, in both vocabularies", () => {
  it("lists every getter and setter with its kind in vocabulary B", async () => {
    await everyDeviceIn(gateway, Object.keys(getterKinds).length)
    const kinds = async (path: string) =>
      Object.fromEntries((await list(gateway, path)).filter((c) => c.adapter === adapter).map((c) => [c.id, c.kind]))
    expect(await kinds("/api/v1/channels/getters")).toEqual(getterKinds)
    expect(await kinds("/api/v1/channels/setters")).toEqual(setterKinds)
    const listed = (await list(gateway, "/api/v1/services")).filter((s) => s.adapter === adapter)
    expect(listed.map((s) => s.id).sort()).toEqual([...services, bridgeService].sort())
  })

  it("lists the same channels with the same kinds, in A's form, as the inputs and outputs of vocabulary A's nodes", async () => {
    await everyDeviceIn(gateway, Object.keys(getterKinds).length)
    const nodes = (await list(gateway, "/api/v1/nodes")).filter((n) => [...services, bridgeService].includes(n.id))
    expect(nodes.map((n) => n.id).sort()).toEqual([...services, bridgeService].sort())
    const inputs = Object.fromEntries(nodes.flatMap((n) => n.inputs ?? []).map((c) => [c.id, c.mechanism.Get.kind]))
    const outputs = Object.fromEntries(nodes.flatMap((n) => n.outputs ?? []).map((c) => [c.id, c.mechanism.Set.kind]))
    const inAForm = (kinds: Readonly<Record<string, Kind>>) => Object.fromEntries(Object.entries(kinds).map(([id, kind]) => [id, inA(kind)]))
    expect(inputs).toEqual(inAForm(getterKinds))
    expect(outputs).toEqual(inAForm(setterKinds))
  })
})

/** Reads frames until `done` holds of those read so far (the socket's own timeout fails a stuck test); answers them. */
const readUntil = async (client: WatchClient, done: (frames: ReadonlyArray<unknown>) => boolean): Promise<ReadonlyArray<unknown>> => {
  const frames: Array<unknown> = []
  while (!done(frames)) frames.push(await client.next())
  return frames
}

/** The ids that frames of one event (`GetterAdded`, `GetRemoved`…) name, sorted. */
const named = (frames: ReadonlyArray<unknown>, event: string): ReadonlyArray<string> =>
  frames.flatMap((f) => (typeof f === "object" && f !== null && event in f ? [String((f as Record<string, unknown>)[event])] : [])).sort()

const valuesFrom = (frames: ReadonlyArray<unknown>, from: string): ReadonlyArray<unknown> =>
  frames.flatMap((f) => {
    const value = typeof f === "object" && f !== null && "Value" in f ? (f.Value as { from: string; value: unknown }) : undefined
    return value?.from === from ? [value.value] : []
  })

/** The door's contact, as the test last had the bridge publish it (Zigbee2MQTT's `true` is closed). */
let doorClosed = true
let battery = 90

describe.each([
  {
    vocabulary: "b",
    register: [{ select: services.map((id) => ({ service: id })) }],
    added: "GetterAdded",
    removed: "GetterRemoved"
  },
  {
    vocabulary: "a",
    register: services.map((id) => ({ source: { parent: { Exactly: id } }, should_watch_values: true, should_watch_topology: true })),
    added: "GetAdded",
    removed: "GetRemoved"
  }
])("watching the bridge's devices in vocabulary $vocabulary", ({ vocabulary, register, added, removed }) => {
  it(`hears published states as values, availability and device-list changes as ${added} and ${removed}`, async () => {
    await everyDeviceIn(gateway, Object.keys(getterKinds).length)
    const client = await openWatch(started(gateway), `vocabulary=${vocabulary}`)
    try {
      client.send(register)
      // First the set as it is, in id order.
      const every = Object.keys(getterKinds).sort()
      expect(await client.collect(every.length)).toEqual(every.map((id) => ({ [added]: id })))

      // A state the bridge publishes: each value that changed is a Value event.
      doorClosed = !doorClosed
      battery -= 1
      await bridge?.publishState("front_door", { contact: doorClosed, battery })
      const contact = { OpenClosed: doorClosed ? "Closed" : "Open" }
      const batteryValue = { ExtNumeric: { value: battery, vendor: "zigbee2mqtt", adapter, kind: "battery" } }
      const published = await readUntil(client, (frames) => valuesFrom(frames, getter(door, "battery")).length > 0 && valuesFrom(frames, getter(door, "contact")).length > 0)
      expect(valuesFrom(published, getter(door, "contact"))).toEqual([contact])
      expect(valuesFrom(published, getter(door, "battery"))).toEqual([batteryValue])

      // The door goes offline: its getters leave; back online, they return.
      await bridge?.setAvailability("front_door", false)
      const offline = await readUntil(client, (frames) => named(frames, removed).length === gettersOf(door).length)
      expect(named(offline, removed)).toEqual(gettersOf(door))
      expect(named(offline, added)).toEqual([])
      await bridge?.setAvailability("front_door", true)
      const online = await readUntil(client, (frames) => named(frames, added).length === gettersOf(door).length)
      expect(named(online, added)).toEqual(gettersOf(door))
      expect(named(online, removed)).toEqual([])

      // The lock leaves the device list, then joins it again.
      await bridge?.setDevices(bridgeDevices.filter((d) => d.friendly_name !== "back_door_lock"))
      const left = await readUntil(client, (frames) => named(frames, removed).length === gettersOf(lock).length)
      expect(named(left, removed)).toEqual(gettersOf(lock))
      await bridge?.setDevices(bridgeDevices)
      const joined = await readUntil(client, (frames) => named(frames, added).length === gettersOf(lock).length)
      expect(named(joined, added)).toEqual(gettersOf(lock))
      expect(named([...left, ...joined], removed)).toEqual(gettersOf(lock))
    } finally {
      await client.close()
    }
  })
})

/**
 * The devices whose exposes the gateway used to leave out, as real Zigbee2MQTT devices publish them
 * (test/support/zigbee2mqttBridge.ts cites each model's page on zigbee2mqtt.io): a two-button switch
 * (WXKG02LM) whose presses are `action` events, a colour bulb that speaks only xy (LED1624G9), a lock's
 * `lock_state` (YRD226HA2619), and the bridge's own `permit_join`; each read and watched over HTTP in
 * both vocabularies, and written where writable, the message the bridge gets checked byte for byte.
 */
const action = getter(button, "action")
const permitJoin = "setter:bridge.permit_join@zigbee2mqtt"

/** The messages the bridge got on `topic` (under its base topic) after the `from`th, as sent. */
const receivedSince = (from: number, topic: string) => (bridge?.raw ?? []).slice(from).filter((r) => r.topic === `house/${topic}`).map((r) => r.payload)

const rounded = (value: unknown) => {
  const color = (value as { readonly Color?: { readonly h: number; readonly s: number; readonly v: number } }).Color
  return color === undefined ? value : { h: Math.round(color.h) % 360, s: Math.round(color.s * 100) / 100, v: Math.round(color.v * 100) / 100 }
}

describe("a button's action before any press", () => {
  it("reads as no value yet, in both vocabularies", async () => {
    await everyDeviceIn(gateway, Object.keys(getterKinds).length)
    expect(await call(gateway, "GET", "/api/v1/channels/get", { id: action })).toEqual({ status: 200, json: { [action]: null } })
    expect(await call(gateway, "GET", "/api/v1/channels/value", [{ id: { Exactly: action } }])).toEqual({ status: 200, json: [[action, { Ok: null }]] })
  })
})

describe.each([
  {
    vocabulary: "b",
    added: "GetterAdded",
    register: (ids: ReadonlyArray<string>) => [{ select: ids.map((id) => ({ id })) }],
    read: async (id: string) => {
      const { json } = await call(gateway, "GET", "/api/v1/channels/get", { id })
      return (json as Record<string, unknown>)[id]
    },
    write: async (id: string, value: unknown) => {
      const { json } = await call(gateway, "PUT", "/api/v1/channels/set", { select: { id }, value })
      return (json as Record<string, unknown>)[id] === null
    },
    presses: ["single_left", "single_right", "single_right"],
    colour: { h: 120, s: 1, v: 0.5 },
    colourSet: `{"color":{"x":0.3,"y":0.6},"brightness":127}`,
    lock: ["Unlocked", `{"state":"UNLOCK"}`, "unlocked"],
    join: [30, `{"value":true,"time":30}`]
  },
  {
    vocabulary: "a",
    added: "GetAdded",
    register: (ids: ReadonlyArray<string>) =>
      ids.map((id) => ({ source: { id: { Exactly: id } }, should_watch_values: true, should_watch_topology: true })),
    read: async (id: string) => {
      const { json } = await call(gateway, "GET", "/api/v1/channels/value", [{ id: { Exactly: id } }])
      const [pair] = json as ReadonlyArray<readonly [string, { readonly Ok?: unknown }]>
      return pair?.[1].Ok
    },
    write: async (id: string, value: unknown) => {
      const { json } = await call(gateway, "POST", "/api/v1/channels/value", { set: [{ id: { Exactly: id } }], value })
      return JSON.stringify(json) === JSON.stringify([[id, { Ok: null }]])
    },
    presses: ["single_right", "single_left", "single_left"],
    colour: { h: 0, s: 1, v: 1 },
    colourSet: `{"color":{"x":0.64,"y":0.33},"brightness":254}`,
    lock: ["Locked", `{"state":"LOCK"}`, "locked"],
    join: [0, `{"value":false,"time":0}`]
  }
])("actions, colours in xy, lock_state and permit_join in vocabulary $vocabulary", (v) => {
  it("hears each press of both buttons, the same one twice in a row included, and reads the last", async () => {
    await everyDeviceIn(gateway, Object.keys(getterKinds).length)
    const client = await openWatch(started(gateway), `vocabulary=${v.vocabulary}`)
    try {
      client.send(v.register([action]))
      expect(await client.collect(1)).toEqual([{ [v.added]: action }])
      // Zigbee2MQTT publishes each press as the switch's state with `action`, e.g.
      // {"action": "single_left", "battery": 100, "voltage": 3045, "linkquality": 72}.
      for (const press of v.presses) await bridge?.press("study_switch", press)
      const frames = await readUntil(client, (seen) => valuesFrom(seen, action).length === v.presses.length)
      expect(valuesFrom(frames, action)).toEqual(v.presses.map((press) => ({ String: press })))
      expect(await v.read(action)).toEqual({ String: v.presses.at(-1) })
    } finally {
      await client.close()
    }
    // The time of the last press is the getter's `updated`.
    const [listed] = (await call(gateway, "GET", "/api/v1/channels/getters", { id: action })).json as ReadonlyArray<{ readonly updated: unknown }>
    expect(listed?.updated).toEqual(expect.any(String))
  })

  it("reads and watches a colour bulb in xy, and writes a colour as xy and brightness in one /set", async () => {
    await everyDeviceIn(gateway, Object.keys(getterKinds).length)
    const color = getter(bulb, "color")
    const client = await openWatch(started(gateway), `vocabulary=${v.vocabulary}`)
    try {
      client.send(v.register([color]))
      expect(await client.collect(1)).toEqual([{ [v.added]: color }])
      const from = bridge?.raw.length ?? 0
      expect(await v.write(setter(bulb, "color"), { Color: v.colour })).toBe(true)
      const sent = await eventuallyAsync(async () => receivedSince(from, "hall_bulb/set"), (payloads) => payloads.length > 0)
      expect(sent).toEqual([v.colourSet])
      // The bulb publishes its new state ({"color": {"x": …, "y": …}, "brightness": …}), which watchers hear.
      const frames = await readUntil(client, (seen) => valuesFrom(seen, color).length > 0)
      expect(valuesFrom(frames, color).map(rounded)).toEqual([v.colour])
      expect(rounded(await v.read(color))).toEqual(v.colour)
    } finally {
      await client.close()
    }
  })

  it("reads and watches a lock's lock_state as it follows a write of the lock", async () => {
    await everyDeviceIn(gateway, Object.keys(getterKinds).length)
    const lockState = getter(lock, "lock_state")
    const [state, message, lockStateAfter] = v.lock
    const client = await openWatch(started(gateway), `vocabulary=${v.vocabulary}`)
    try {
      client.send(v.register([lockState]))
      expect(await client.collect(1)).toEqual([{ [v.added]: lockState }])
      const from = bridge?.raw.length ?? 0
      expect(await v.write(setter(lock, "state"), { DoorLocked: state })).toBe(true)
      expect(await eventuallyAsync(async () => receivedSince(from, "back_door_lock/set"), (p) => p.length > 0)).toEqual([message])
      const frames = await readUntil(client, (seen) => valuesFrom(seen, lockState).length > 0)
      expect(valuesFrom(frames, lockState)).toEqual([{ String: lockStateAfter }])
      expect(await v.read(lockState)).toEqual({ String: lockStateAfter })
    } finally {
      await client.close()
    }
  })

  it("lists the bridge as a service and writes permit_join as bridge/request/permit_join", async () => {
    await everyDeviceIn(gateway, Object.keys(getterKinds).length)
    const listed = (await list(gateway, "/api/v1/services")).find((s) => s.id === bridgeService) as { readonly properties?: unknown } | undefined
    expect(listed?.properties).toMatchObject({ state: "online", version: "1.42.0", coordinator: "zStack3x0" })
    const [seconds, message] = v.join
    const from = bridge?.raw.length ?? 0
    expect(await v.write(permitJoin, { Duration: seconds })).toBe(true)
    expect(await eventuallyAsync(async () => receivedSince(from, "bridge/request/permit_join"), (p) => p.length > 0)).toEqual([message])
  })
})

/**
 * A bridge whose thermostat never answers a `/get` (asleep, or out of range: Zigbee2MQTT then
 * publishes nothing): it lists the thermostat and a lock, publishes the lock's state, and only
 * records what it is asked.
 */
interface SilentBridge {
  readonly asked: Array<{ readonly topic: string; readonly payload: unknown }>
  readonly publishState: (name: string, state: Record<string, unknown>) => Promise<void>
  readonly close: () => Promise<void>
}

const startSilentBridge = async (url: string, base: string): Promise<SilentBridge> => {
  const client: MqttClient = await connectAsync(url, { reconnectPeriod: 100 })
  const asked: Array<{ readonly topic: string; readonly payload: unknown }> = []
  client.on("message", (topic, payload) => void asked.push({ topic, payload: JSON.parse(payload.toString("utf8")) }))
  await client.subscribeAsync(`${base}/+/get`, { qos: 1 })
  const publish = (topic: string, payload: unknown) =>
    client.publishAsync(`${base}/${topic}`, JSON.stringify(payload), { retain: true, qos: 1 }).then(() => undefined)
  await publish("bridge/state", { state: "online" })
  await publish("bridge/devices", bridgeDevices.filter((d) => d.friendly_name === "hall_thermostat" || d.friendly_name === "back_door_lock"))
  await publish("back_door_lock", { state: "LOCK", lock_state: "locked" })
  return { asked, publishState: publish, close: () => client.endAsync() }
}

describe(`a /get no device answers (--device-timeout ${silentTimeoutMs})`, () => {
  const temperature = getter(thermostat, "local_temperature")
  const locked = getter(lock, "state")

  it("is the channel's error after the device timeout, beside the values that are known; the gateway keeps answering", async () => {
    // The thermostat's three getters and the lock's two.
    await everyDeviceIn(silentGateway, 5)
    const timedOut = { InternalError: `device did not answer within ${silentTimeoutMs} ms` }
    // B wraps a per-channel error in `Error`; A answers `[id, {"Err": …}]` pairs.

    const before = Date.now()
    const first = await call(silentGateway, "GET", "/api/v1/channels/get", [{ id: temperature }, { id: locked }])
    expect(Date.now() - before).toBeGreaterThanOrEqual(silentTimeoutMs)
    expect(first).toEqual({ status: 200, json: { [temperature]: { Error: timedOut }, [locked]: { DoorLocked: "Locked" } } })
    expect(silentBridge?.asked).toEqual([{ topic: "silent/hall_thermostat/get", payload: { local_temperature: "" } }])

    // Asked again, it asks again and gives up again: nothing of the first wait is left to hang on.
    const again = await call(silentGateway, "GET", "/api/v1/channels/value", [{ id: { Exactly: temperature } }])
    expect(again).toEqual({ status: 200, json: [[temperature, { Err: timedOut }]] })
    expect(await call(silentGateway, "GET", "/health")).toMatchObject({ status: 200, json: { status: "ok" } })
    expect(await call(silentGateway, "GET", "/api/v1/channels/get", { id: locked })).toEqual({ status: 200, json: { [locked]: { DoorLocked: "Locked" } } })

    // Once the thermostat speaks, its state answers without asking.
    await silentBridge?.publishState("hall_thermostat", { local_temperature: 18 })
    await eventuallyAsync(
      () => call(silentGateway, "GET", "/api/v1/channels/getters", { id: temperature }),
      (reply) => JSON.stringify(reply.json).includes(`"updated":"`)
    )
    const asked = silentBridge?.asked.length
    expect(await call(silentGateway, "GET", "/api/v1/channels/get", { id: temperature })).toEqual({
      status: 200,
      json: { [temperature]: { Temperature: { C: 18 } } }
    })
    expect(silentBridge?.asked.length).toBe(asked)
  })
})
