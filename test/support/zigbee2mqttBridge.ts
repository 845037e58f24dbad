import { connectAsync, type IClientOptions, type MqttClient } from "mqtt"

/**
 * Plays Zigbee2MQTT on a real broker, with the messages its MQTT interface documents: the retained
 * `bridge/state` and `bridge/devices` (each device's `definition.exposes`), retained availability
 * per device, a state JSON per device; it answers `/set` by publishing the new state and `/get` by
 * publishing the current one. Its home: a colour light, a door contact sensor, a thermostat, a lock,
 * a two-button switch and a colour bulb that speaks xy. The devices' exposes and states are those
 * zigbee2mqtt.io documents for their models (https://www.zigbee2mqtt.io/devices/<model>.html).
 *
 * A device's state is retained as Zigbee2MQTT retains it for a device configured with `retain: true`
 * (https://www.zigbee2mqtt.io/guide/configuration/devices-groups.html): by default every device is, and
 * `retainedStates` names those that are (the others' states are published, not kept by the broker).
 *
 * It also plays the bridge itself: the retained `bridge/info`, and `bridge/request/permit_join`
 * answered as Zigbee2MQTT does (https://www.zigbee2mqtt.io/guide/usage/mqtt_topics_and_messages.html):
 * a new `bridge/info`, and `bridge/response/permit_join`.
 */

const light = { type: "binary", name: "state", property: "state", access: 7, value_on: "ON", value_off: "OFF", value_toggle: "TOGGLE" }
const brightness = { type: "numeric", name: "brightness", property: "brightness", access: 7, value_min: 0, value_max: 254 }
/** A light's colour as Zigbee2MQTT exposes it: a composite of two numbers, under `color` in the state. */
const colour = (name: "color_hs" | "color_xy", parts: readonly [string, string]) => ({
  type: "composite",
  name,
  property: "color",
  access: 7,
  features: parts.map((part) => ({ type: "numeric", name: part, property: part, access: 7 }))
})

/** The bridge's devices by what they are: their IEEE addresses, which the tests name them by. */
export const ieee = {
  light: "0x0017880100000001",
  door: "0x00158d0000000002",
  thermostat: "0x00124b0000000003",
  lock: "0x000d6f0000000004",
  button: "0x00158d0000000005",
  bulb: "0x000b57fffe000006"
}

export const bridgeDevices = [
  {
    ieee_address: "0x00124b0000000000",
    type: "Coordinator",
    network_address: 0,
    supported: true,
    friendly_name: "Coordinator",
    disabled: false,
    definition: null,
    interview_completed: true
  },
  {
    ieee_address: ieee.light,
    type: "Router",
    network_address: 12345,
    supported: true,
    friendly_name: "living_room_light",
    disabled: false,
    interview_completed: true,
    power_source: "Mains (single phase)",
    definition: {
      model: "9290022166",
      vendor: "Philips",
      description: "Hue white and color ambiance E26/E27",
      exposes: [
        {
          type: "light",
          features: [
            light,
            brightness,
            { type: "numeric", name: "color_temp", property: "color_temp", access: 7, unit: "mired", value_min: 153, value_max: 500 },
            colour("color_hs", ["hue", "saturation"])
          ]
        },
        { type: "enum", name: "effect", property: "effect", access: 2, values: ["blink", "breathe"] },
        { type: "numeric", name: "linkquality", property: "linkquality", access: 1, unit: "lqi", value_min: 0, value_max: 255 }
      ]
    }
  },
  {
    ieee_address: ieee.door,
    type: "EndDevice",
    network_address: 23456,
    supported: true,
    friendly_name: "front_door",
    disabled: false,
    interview_completed: true,
    power_source: "Battery",
    definition: {
      model: "MCCGQ11LM",
      vendor: "Aqara",
      description: "Door and window sensor",
      exposes: [
        { type: "binary", name: "contact", property: "contact", access: 1, value_on: false, value_off: true },
        { type: "numeric", name: "battery", property: "battery", access: 1, unit: "%", value_min: 0, value_max: 100 },
        { type: "numeric", name: "device_temperature", property: "device_temperature", access: 1, unit: "°C" },
        { type: "binary", name: "battery_low", property: "battery_low", access: 1, value_on: true, value_off: false }
      ]
    }
  },
  {
    ieee_address: ieee.thermostat,
    type: "EndDevice",
    network_address: 34567,
    supported: true,
    friendly_name: "hall_thermostat",
    disabled: false,
    interview_completed: true,
    definition: {
      model: "SPZB0001",
      vendor: "Eurotronic",
      description: "Spirit Zigbee wireless heater thermostat",
      exposes: [
        {
          type: "climate",
          features: [
            { type: "numeric", name: "local_temperature", property: "local_temperature", access: 5, unit: "°C" },
            { type: "numeric", name: "current_heating_setpoint", property: "current_heating_setpoint", access: 7, unit: "°C", value_min: 5, value_max: 30, value_step: 0.5 },
            { type: "enum", name: "system_mode", property: "system_mode", access: 7, values: ["off", "auto", "heat"] }
          ]
        }
      ]
    }
  },
  {
    ieee_address: ieee.lock,
    type: "Router",
    network_address: 45678,
    supported: true,
    friendly_name: "back_door_lock",
    disabled: false,
    interview_completed: true,
    definition: {
      model: "YRD226HA2619",
      vendor: "Yale",
      description: "Assure lock",
      exposes: [
        {
          type: "lock",
          features: [
            { type: "binary", name: "state", property: "state", access: 7, value_on: "LOCK", value_off: "UNLOCK" },
            { type: "enum", name: "lock_state", property: "lock_state", access: 1, values: ["not_fully_locked", "locked", "unlocked"] }
          ]
        }
      ]
    }
  },
  {
    // https://www.zigbee2mqtt.io/devices/WXKG02LM_rev1.html: its presses come as `action`, never as a state.
    ieee_address: ieee.button,
    type: "EndDevice",
    network_address: 56789,
    supported: true,
    friendly_name: "study_switch",
    disabled: false,
    interview_completed: true,
    power_source: "Battery",
    definition: {
      model: "WXKG02LM_rev1",
      vendor: "Aqara",
      description: "Wireless remote switch (double rocker), 2016 model",
      exposes: [
        { type: "numeric", name: "battery", property: "battery", access: 1, unit: "%", value_min: 0, value_max: 100 },
        { type: "numeric", name: "voltage", property: "voltage", access: 1, unit: "mV" },
        {
          type: "enum",
          name: "action",
          property: "action",
          access: 1,
          values: ["single_left", "single_right", "single_both", "double_left", "double_right", "double_both", "hold_left", "hold_right", "hold_both"]
        },
        { type: "numeric", name: "linkquality", property: "linkquality", access: 1, unit: "lqi", value_min: 0, value_max: 255 }
      ]
    }
  },
  {
    // https://www.zigbee2mqtt.io/devices/LED1624G9.html: a colour bulb with color_xy only.
    ieee_address: ieee.bulb,
    type: "Router",
    network_address: 6789,
    supported: true,
    friendly_name: "hall_bulb",
    disabled: false,
    interview_completed: true,
    power_source: "Mains (single phase)",
    definition: {
      model: "LED1624G9",
      vendor: "IKEA",
      description: "TRADFRI bulb E14/E26/E27 CWS, 600/806/810 lumen, dimmable, color, opal white",
      exposes: [
        {
          type: "light",
          features: [
            light,
            brightness,
            colour("color_xy", ["x", "y"])
          ]
        },
        { type: "enum", name: "power_on_behavior", property: "power_on_behavior", access: 7, values: ["off", "on", "toggle", "previous"] },
        { type: "numeric", name: "linkquality", property: "linkquality", access: 1, unit: "lqi", value_min: 0, value_max: 255 }
      ]
    }
  }
]

/** `bridge/info` as Zigbee2MQTT publishes it (retained), the fields the gateway reads and a few it does not. */
export const bridgeInfo = {
  version: "1.42.0",
  commit: "a1b2c3d",
  coordinator: { ieee_address: "0x00124b0000000000", type: "zStack3x0", meta: { revision: 20230507, transportrev: 2 } },
  network: { channel: 11, pan_id: 6754, extended_pan_id: "0xdddddddddddddddd" },
  log_level: "info",
  permit_join: false,
  restart_required: false
}

/** What each device says before anything happens; the thermostat has published nothing (read through `/get`). */
const initialStates: Record<string, Record<string, unknown>> = {
  living_room_light: { state: "OFF", brightness: 127, color: { hue: 120, saturation: 50 }, color_mode: "hs", linkquality: 120 },
  front_door: { contact: true, battery: 91, device_temperature: 22, battery_low: false },
  back_door_lock: { state: "LOCK", lock_state: "locked" },
  study_switch: { battery: 100, voltage: 3045, linkquality: 72 },
  hall_bulb: { state: "ON", brightness: 254, color: { x: 0.4576, y: 0.41 }, color_mode: "xy", power_on_behavior: "on", linkquality: 92 }
}
/** What the thermostat answers to a `/get`. */
const thermostatState = { local_temperature: 19.5, current_heating_setpoint: 21, system_mode: "heat" }

export interface FakeBridge {
  /** Every `/set`, `/get` and `bridge/request/permit_join` the bridge received, in order, with its payload as sent. */
  readonly raw: Array<{ readonly topic: string; readonly payload: string }>
  /** Every `/set` and `/get` the bridge received, in order. */
  readonly received: Array<{ readonly topic: string; readonly payload: unknown }>
  /** Publishes a state change of a device (merged into its state, as Zigbee2MQTT does). */
  readonly publishState: (name: string, change: Record<string, unknown>) => Promise<void>
  readonly setAvailability: (name: string, online: boolean, legacy?: boolean) => Promise<void>
  readonly setDevices: (devices: ReadonlyArray<unknown>) => Promise<void>
  /** `bridge/state`: Zigbee2MQTT stopping (`offline`, its last will) or starting again. */
  readonly setBridgeState: (online: boolean) => Promise<void>
  /**
   * A button pressed: Zigbee2MQTT publishes the device's state with `action` (not retained, as it
   * publishes device states by default), and keeps no `action` in the state it publishes next.
   */
  readonly press: (name: string, action: string) => Promise<void>
  /** A device joins and is interviewed: the new `bridge/devices`, then its availability and state. */
  readonly join: (device: (typeof bridgeDevices)[number], state: Record<string, unknown>) => Promise<void>
  readonly close: () => Promise<void>
}

export const startFakeBridge = async (
  url: string,
  options: {
    readonly baseTopic?: string
    readonly username?: string
    readonly password?: string
    readonly ca?: string
    /** The devices configured with `retain: true`, by friendly name; by default, all. */
    readonly retainedStates?: ReadonlyArray<string>
    /** How long a device takes to answer a `/get` (the radio round trip; default none). */
    readonly getAnswerMs?: number
  } = {}
): Promise<FakeBridge> => {
  const base = options.baseTopic ?? "zigbee2mqtt"
  const clientOptions: IClientOptions = { reconnectPeriod: 100, connectTimeout: 5_000 }
  if (options.username !== undefined) clientOptions.username = options.username
  if (options.password !== undefined) clientOptions.password = options.password
  if (options.ca !== undefined) clientOptions.ca = options.ca
  const client: MqttClient = await connectAsync(url, clientOptions)
  const states = new Map(Object.entries(structuredClone(initialStates)))
  const received: Array<{ readonly topic: string; readonly payload: unknown }> = []
  const raw: Array<{ readonly topic: string; readonly payload: string }> = []
  let devices: ReadonlyArray<unknown> = bridgeDevices
  const publish = (topic: string, payload: unknown, retain: boolean) =>
    client.publishAsync(`${base}/${topic}`, typeof payload === "string" ? payload : JSON.stringify(payload), { retain, qos: 1 }).then(() => undefined)
  const publishState = async (name: string, change: Record<string, unknown>) => {
    const state = { ...(states.get(name) ?? {}), ...change }
    states.set(name, state)
    await publish(name, state, options.retainedStates?.includes(name) ?? true)
  }

  client.on("message", (topic, buffer) => {
    raw.push({ topic, payload: buffer.toString("utf8") })
    if (topic === `${base}/bridge/request/permit_join`) {
      const request = JSON.parse(buffer.toString("utf8")) as { readonly value?: boolean; readonly time?: number }
      const open = (request.time ?? 0) > 0
      void publish("bridge/info", { ...bridgeInfo, permit_join: open }, true)
        .then(() => publish("bridge/response/permit_join", { data: { time: request.time ?? 0 }, status: "ok" }, false))
      return
    }
    const match = new RegExp(`^${base}/([^/]+)/(set|get)$`).exec(topic)
    if (match === null) return
    const [, name = "", command] = match
    const payload: unknown = JSON.parse(buffer.toString("utf8"))
    received.push({ topic, payload })
    if (command === "get") {
      const answer = () => void publishState(name, name === "hall_thermostat" ? { ...thermostatState, ...states.get(name) } : {})
      if (options.getAnswerMs === undefined) answer()
      else setTimeout(answer, options.getAnswerMs)
      return
    }
    const change = { ...(payload as Record<string, unknown>) }
    if (name === "back_door_lock") change["lock_state"] = change["state"] === "LOCK" ? "locked" : "unlocked"
    void publishState(name, change)
  })
  await client.subscribeAsync([`${base}/+/set`, `${base}/+/get`, `${base}/bridge/request/permit_join`], { qos: 1 })

  await publish("bridge/state", { state: "online" }, true)
  await publish("bridge/info", bridgeInfo, true)
  await publish("bridge/devices", bridgeDevices, true)
  for (const device of bridgeDevices.slice(1)) await publish(`${device.friendly_name}/availability`, { state: "online" }, true)
  for (const [name, state] of states) await publishState(name, state)

  return {
    raw,
    received,
    publishState,
    setAvailability: (name, online, legacy = false) =>
      publish(`${name}/availability`, legacy ? (online ? "online" : "offline") : { state: online ? "online" : "offline" }, true),
    setDevices: (list) => {
      devices = list
      return publish("bridge/devices", list, true)
    },
    press: (name, action) => publish(name, { ...states.get(name), action }, false),
    join: async (device, state) => {
      devices = [...devices, device]
      await publish("bridge/devices", devices, true)
      await publish(`${device.friendly_name}/availability`, { state: "online" }, true)
      await publishState(device.friendly_name, state)
    },
    setBridgeState: (online) => publish("bridge/state", { state: online ? "online" : "offline" }, true),
    close: () => client.endAsync()
  }
}
