import { expect } from "vitest"
import type { Call } from "../../support/hookedGateway.ts"

/**
 * Simulator homes (docs/simulator.md) for the vocabulary B tests over HTTP, and what vocabulary B
 * shows of them before anything is written. Timestamps are compared as `T` (see `withoutTimes`): a `null`
 * stays `null`, so "never updated" is still told apart from "updated at some time".
 */

/** Where a timestamp stands in an expected answer. */
export const T = "<time>"

export const adapter = "simulator@b.test"

const windSpeedKind = { vendor: "acme", adapter: "weather", kind: "wind-speed", type: "ExtNumeric" }
const sprinklerKind = { vendor: "acme", adapter: "garden", kind: "sprinkler", type: "ExtBool" }

/** The wind gauge's value, and values of the sprinkler's extension type. */
export const windSpeedValue = { ExtNumeric: { value: 3.5, vendor: "acme", adapter: "weather", kind: "wind-speed" } }
export const sprinklerOn = { ExtBool: { value: true, vendor: "acme", adapter: "garden", kind: "sprinkler" } }

/**
 * A healthy home: lights whose setters drive their getters (the porch light answers after a latency), a
 * front door with a lock, a garden with a time-of-day getter and extension kinds (its sprinkler's getter
 * has no value until the setter drives it), a thermostat, and a
 * doorbell whose getter has no value yet and whose setters (Unit kinds) drive nothing. Service and channel
 * tags overlap on purpose (`main` on channels of two services, `outside` on three services).
 */
export const home = {
  adapter,
  services: [
    {
      id: "service:doorbell@b",
      tags: ["entrance"],
      properties: { name: "Doorbell", model: "Sim doorbell" },
      getters: [{ id: "getter:doorbell-pressed@b", kind: "Ready" }],
      setters: [
        { id: "setter:doorbell-chime@b", kind: "Ready" },
        { id: "setter:doorbell-snapshot@b", kind: "TakeSnapshot" }
      ]
    },
    {
      id: "service:front-door@b",
      tags: ["door", "entrance"],
      properties: { name: "Front door" },
      getters: [
        { id: "getter:front-door@b", kind: "OpenClosed", tags: ["contact"], value: { OpenClosed: "Closed" } },
        { id: "getter:front-door-lock@b", kind: "DoorLocked", tags: ["lock", "main"], value: { DoorLocked: "Locked" } }
      ],
      setters: [
        { id: "setter:front-door-lock@b", kind: "DoorLocked", tags: ["lock"], drives: "getter:front-door-lock@b" }
      ]
    },
    {
      id: "service:garden@b",
      tags: ["outside"],
      getters: [
        { id: "getter:garden-time@b", kind: "CurrentTimeOfDay", value: { Duration: 21600 } },
        { id: "getter:wind-speed@b", kind: windSpeedKind, value: windSpeedValue },
        { id: "getter:sprinkler-running@b", kind: sprinklerKind }
      ],
      setters: [{ id: "setter:sprinkler@b", kind: sprinklerKind, drives: "getter:sprinkler-running@b" }]
    },
    {
      id: "service:kitchen-light@b",
      tags: ["inside", "light"],
      properties: { name: "Kitchen light", model: "Sim colour bulb", room: "kitchen" },
      getters: [
        { id: "getter:kitchen-light-on@b", kind: "OnOff", value: { OnOff: "On" } },
        { id: "getter:kitchen-light-color@b", kind: "LightColor", value: { Color: { h: 30, s: 0.5, v: 1 } } }
      ],
      setters: [
        { id: "setter:kitchen-light-on@b", kind: "OnOff", drives: "getter:kitchen-light-on@b" },
        { id: "setter:kitchen-light-color@b", kind: "LightColor", drives: "getter:kitchen-light-color@b" }
      ]
    },
    {
      id: "service:porch-light@b",
      tags: ["light", "outside"],
      properties: { name: "Porch light" },
      latency_ms: 20,
      getters: [{ id: "getter:porch-light-on@b", kind: "OnOff", tags: ["main"], value: { OnOff: "Off" } }],
      setters: [{ id: "setter:porch-light-on@b", kind: "OnOff", tags: ["main"], drives: "getter:porch-light-on@b" }]
    },
    {
      id: "service:thermostat@b",
      tags: ["inside", "outside"],
      properties: { name: "Thermostat" },
      getters: [
        { id: "getter:thermostat-target@b", kind: "Thermostat", value: { Temperature: { C: 21 } } },
        { id: "getter:living-room-temperature@b", kind: "ActualTemperature", value: { Temperature: { F: 68.9 } } }
      ],
      setters: [{ id: "setter:thermostat-target@b", kind: "Thermostat", drives: "getter:thermostat-target@b" }]
    }
  ]
}

/** A home with one healthy lamp (a little slow), a device that fails every call and one that never answers. */
export const troubledHome = {
  adapter,
  services: [
    {
      id: "service:lamp@b",
      latency_ms: 10,
      getters: [{ id: "getter:lamp-on@b", kind: "OnOff", value: { OnOff: "On" } }],
      setters: [{ id: "setter:lamp-on@b", kind: "OnOff", drives: "getter:lamp-on@b" }]
    },
    {
      id: "service:siren@b",
      fail: "error",
      getters: [{ id: "getter:siren-on@b", kind: "OnOff" }],
      setters: [{ id: "setter:siren-on@b", kind: "OnOff" }]
    },
    {
      id: "service:sleepy@b",
      fail: "timeout",
      getters: [{ id: "getter:sleepy-motion@b", kind: "OnOff" }],
      setters: [{ id: "setter:sleepy-chime@b", kind: "OnOff" }]
    }
  ]
}

/** The device timeout the troubled home runs with, so that the hung device costs little. */
export const troubledDeviceTimeoutMs = 300

// ---- `home` as vocabulary B shows it before any write ---------------------------------------------

interface ExpectedChannel {
  readonly id: string
  readonly service: string
  readonly adapter: string
  readonly mechanism: "getter" | "setter"
  readonly kind: unknown
  readonly tags: ReadonlyArray<string>
  readonly updated: string | null
  readonly last_seen: string | null
}

const getter = (id: string, service: string, kind: unknown, tags: ReadonlyArray<string>, hasValue: boolean): ExpectedChannel => ({
  id,
  service,
  adapter,
  mechanism: "getter",
  kind,
  tags,
  // A device that connects with a value has reported it; one with no value yet has never been updated.
  updated: hasValue ? T : null,
  last_seen: T
})

const setter = (id: string, service: string, kind: unknown, tags: ReadonlyArray<string> = []): ExpectedChannel => ({
  id,
  service,
  adapter,
  mechanism: "setter",
  kind,
  tags,
  updated: null,
  last_seen: T
})

export const getters = {
  doorbellPressed: getter("getter:doorbell-pressed@b", "service:doorbell@b", "Ready", [], false),
  frontDoorLock: getter("getter:front-door-lock@b", "service:front-door@b", "DoorLocked", ["lock", "main"], true),
  frontDoor: getter("getter:front-door@b", "service:front-door@b", "OpenClosed", ["contact"], true),
  gardenTime: getter("getter:garden-time@b", "service:garden@b", "CurrentTimeOfDay", [], true),
  kitchenLightColor: getter("getter:kitchen-light-color@b", "service:kitchen-light@b", "LightColor", [], true),
  kitchenLightOn: getter("getter:kitchen-light-on@b", "service:kitchen-light@b", "OnOff", [], true),
  livingRoomTemperature: getter("getter:living-room-temperature@b", "service:thermostat@b", "ActualTemperature", [], true),
  porchLightOn: getter("getter:porch-light-on@b", "service:porch-light@b", "OnOff", ["main"], true),
  sprinklerRunning: getter("getter:sprinkler-running@b", "service:garden@b", sprinklerKind, [], false),
  thermostatTarget: getter("getter:thermostat-target@b", "service:thermostat@b", "Thermostat", [], true),
  windSpeed: getter("getter:wind-speed@b", "service:garden@b", windSpeedKind, [], true)
}

export const setters = {
  doorbellChime: setter("setter:doorbell-chime@b", "service:doorbell@b", "Ready"),
  doorbellSnapshot: setter("setter:doorbell-snapshot@b", "service:doorbell@b", "TakeSnapshot"),
  frontDoorLock: setter("setter:front-door-lock@b", "service:front-door@b", "DoorLocked", ["lock"]),
  kitchenLightColor: setter("setter:kitchen-light-color@b", "service:kitchen-light@b", "LightColor"),
  kitchenLightOn: setter("setter:kitchen-light-on@b", "service:kitchen-light@b", "OnOff"),
  porchLightOn: setter("setter:porch-light-on@b", "service:porch-light@b", "OnOff", ["main"]),
  sprinkler: setter("setter:sprinkler@b", "service:garden@b", sprinklerKind),
  thermostatTarget: setter("setter:thermostat-target@b", "service:thermostat@b", "Thermostat")
}

/** Every getter, sorted by id as lists are (`-` sorts before `@`). */
export const allGetters = [
  getters.doorbellPressed,
  getters.frontDoorLock,
  getters.frontDoor,
  getters.gardenTime,
  getters.kitchenLightColor,
  getters.kitchenLightOn,
  getters.livingRoomTemperature,
  getters.porchLightOn,
  getters.sprinklerRunning,
  getters.thermostatTarget,
  getters.windSpeed
]

export const allSetters = [
  setters.doorbellChime,
  setters.doorbellSnapshot,
  setters.frontDoorLock,
  setters.kitchenLightColor,
  setters.kitchenLightOn,
  setters.porchLightOn,
  setters.sprinkler,
  setters.thermostatTarget
]

export const services = {
  doorbell: {
    id: "service:doorbell@b",
    adapter,
    tags: ["entrance"],
    properties: { name: "Doorbell", model: "Sim doorbell" },
    getters: [getters.doorbellPressed],
    setters: [setters.doorbellChime, setters.doorbellSnapshot]
  },
  frontDoor: {
    id: "service:front-door@b",
    adapter,
    tags: ["door", "entrance"],
    properties: { name: "Front door" },
    getters: [getters.frontDoorLock, getters.frontDoor],
    setters: [setters.frontDoorLock]
  },
  garden: {
    id: "service:garden@b",
    adapter,
    tags: ["outside"],
    properties: {},
    getters: [getters.gardenTime, getters.sprinklerRunning, getters.windSpeed],
    setters: [setters.sprinkler]
  },
  kitchenLight: {
    id: "service:kitchen-light@b",
    adapter,
    tags: ["inside", "light"],
    properties: { name: "Kitchen light", model: "Sim colour bulb", room: "kitchen" },
    getters: [getters.kitchenLightColor, getters.kitchenLightOn],
    setters: [setters.kitchenLightColor, setters.kitchenLightOn]
  },
  porchLight: {
    id: "service:porch-light@b",
    adapter,
    tags: ["light", "outside"],
    properties: { name: "Porch light" },
    getters: [getters.porchLightOn],
    setters: [setters.porchLightOn]
  },
  thermostat: {
    id: "service:thermostat@b",
    adapter,
    tags: ["inside", "outside"],
    properties: { name: "Thermostat" },
    getters: [getters.livingRoomTemperature, getters.thermostatTarget],
    setters: [setters.thermostatTarget]
  }
}

export const allServices = [
  services.doorbell,
  services.frontDoor,
  services.garden,
  services.kitchenLight,
  services.porchLight,
  services.thermostat
]

/** Every getter's value before any write, keyed by id as fetch_values answers. */
export const initialValues = {
  "getter:doorbell-pressed@b": null,
  "getter:front-door-lock@b": { DoorLocked: "Locked" },
  "getter:front-door@b": { OpenClosed: "Closed" },
  "getter:garden-time@b": { Duration: 21600 },
  "getter:kitchen-light-color@b": { Color: { h: 30, s: 0.5, v: 1 } },
  "getter:kitchen-light-on@b": { OnOff: "On" },
  "getter:living-room-temperature@b": { Temperature: { F: 68.9 } },
  "getter:porch-light-on@b": { OnOff: "Off" },
  "getter:sprinkler-running@b": null,
  "getter:thermostat-target@b": { Temperature: { C: 21 } },
  "getter:wind-speed@b": windSpeedValue
}

/** Nothing was tagged or written: the home of homes.ts still reads as it started. */
export const expectUntouched = async (call: Call): Promise<void> => {
  expect(await call("GET", "/api/v1/services")).toEqual({ status: 200, body: allServices })
  expect(await call("GET", "/api/v1/channels/get")).toEqual({ status: 200, body: initialValues })
}
