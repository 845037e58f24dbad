/**
 * Simulator homes (docs/simulator.md) for the vocabulary A tests over HTTP, and what vocabulary A
 * shows of them before anything is written. Timestamps are compared as `T` (see `withoutTimes`):
 * a `null` stays `null`, so "never updated" is still told apart from "updated at some time".
 */

/** Where a timestamp stands in an expected answer. */
export const T = "<time>"

/**
 * A small healthy home: a light whose setter drives its getter, a door with a lock, a wind gauge with an
 * extension kind and a getter that has no value yet. Service and channel tags overlap on purpose.
 */
export const home = {
  adapter: "simulator@gateway.local",
  services: [
    {
      id: "service:porch-light@test",
      tags: ["outside", "light"],
      properties: { name: "Porch light" },
      getters: [
        { id: "getter:porch-light-on@test", kind: "OnOff", tags: ["main"], value: { OnOff: "Off" } }
      ],
      setters: [
        { id: "setter:porch-light-on@test", kind: "OnOff", tags: ["main"], drives: "getter:porch-light-on@test" }
      ]
    },
    {
      id: "service:back-door@test",
      tags: ["outside", "door"],
      getters: [
        { id: "getter:back-door@test", kind: "OpenClosed", value: { OpenClosed: "Closed" } },
        { id: "getter:back-door-lock@test", kind: "DoorLocked", tags: ["main"], value: { DoorLocked: "Locked" } }
      ],
      setters: [
        { id: "setter:back-door-lock@test", kind: "DoorLocked", drives: "getter:back-door-lock@test" }
      ]
    },
    {
      id: "service:wind-gauge@test",
      tags: ["outside"],
      getters: [
        {
          id: "getter:wind-speed@test",
          kind: { vendor: "acme", adapter: "weather", kind: "wind-speed", type: "ExtNumeric" },
          value: { ExtNumeric: { value: 3.5, vendor: "acme", adapter: "weather", kind: "wind-speed" } }
        },
        { id: "getter:wind-gauge-ready@test", kind: "Ready" }
      ]
    }
  ]
}

/** A home with one healthy lamp, a device that fails every call and one that never answers. */
export const troubledHome = {
  services: [
    {
      id: "service:lamp@test",
      getters: [{ id: "getter:lamp-on@test", kind: "OnOff", value: { OnOff: "On" } }],
      setters: [{ id: "setter:lamp-on@test", kind: "OnOff", drives: "getter:lamp-on@test" }]
    },
    {
      id: "service:siren@test",
      fail: "error",
      getters: [{ id: "getter:siren-on@test", kind: "OnOff" }],
      setters: [{ id: "setter:siren-on@test", kind: "OnOff" }]
    },
    {
      id: "service:sleepy-sensor@test",
      fail: "timeout",
      getters: [{ id: "getter:sleepy-motion@test", kind: "OnOff" }],
      setters: [{ id: "setter:sleepy-chime@test", kind: "OnOff" }]
    }
  ]
}

/** The device timeout the troubled home runs with, so that the hung device costs little. */
export const troubledDeviceTimeoutMs = 300

// ---- `home` as vocabulary A shows it before any write -----------------------------------------------

const onOff = { OnOff: [] }
const windSpeed = { Extension: { vendor: "acme", adapter: "weather", kind: "wind-speed", type: "ExtNumeric" } }

export const inputs = {
  backDoor: {
    id: "getter:back-door@test",
    node: "service:back-door@test",
    tags: [],
    last_seen: T,
    mechanism: { Get: { kind: { OpenClosed: [] }, updated: T } }
  },
  backDoorLock: {
    id: "getter:back-door-lock@test",
    node: "service:back-door@test",
    tags: ["main"],
    last_seen: T,
    mechanism: { Get: { kind: { DoorLocked: [] }, updated: T } }
  },
  porchLightOn: {
    id: "getter:porch-light-on@test",
    node: "service:porch-light@test",
    tags: ["main"],
    last_seen: T,
    mechanism: { Get: { kind: onOff, updated: T } }
  },
  windGaugeReady: {
    id: "getter:wind-gauge-ready@test",
    node: "service:wind-gauge@test",
    tags: [],
    last_seen: T,
    mechanism: { Get: { kind: { Ready: [] }, updated: null } }
  },
  windSpeed: {
    id: "getter:wind-speed@test",
    node: "service:wind-gauge@test",
    tags: [],
    last_seen: T,
    mechanism: { Get: { kind: windSpeed, updated: T } }
  }
}

export const outputs = {
  backDoorLock: {
    id: "setter:back-door-lock@test",
    node: "service:back-door@test",
    tags: [],
    last_seen: T,
    mechanism: { Set: { kind: { DoorLocked: [] }, push: [0], updated: null } }
  },
  porchLightOn: {
    id: "setter:porch-light-on@test",
    node: "service:porch-light@test",
    tags: ["main"],
    last_seen: T,
    mechanism: { Set: { kind: onOff, push: [0], updated: null } }
  }
}

/** Every input, sorted by id as lists are (`-` sorts before `@`). */
export const allInputs = [inputs.backDoorLock, inputs.backDoor, inputs.porchLightOn, inputs.windGaugeReady, inputs.windSpeed]
export const allOutputs = [outputs.backDoorLock, outputs.porchLightOn]

export const nodes = {
  backDoor: {
    id: "service:back-door@test",
    tags: ["door", "outside"],
    inputs: [inputs.backDoorLock, inputs.backDoor],
    outputs: [outputs.backDoorLock]
  },
  porchLight: {
    id: "service:porch-light@test",
    tags: ["light", "outside"],
    inputs: [inputs.porchLightOn],
    outputs: [outputs.porchLightOn]
  },
  windGauge: {
    id: "service:wind-gauge@test",
    tags: ["outside"],
    inputs: [inputs.windGaugeReady, inputs.windSpeed],
    outputs: []
  }
}

export const allNodes = [nodes.backDoor, nodes.porchLight, nodes.windGauge]

/** The value of the wind gauge's extension getter, as both vocabularies write it. */
export const windSpeedValue = { ExtNumeric: { value: 3.5, vendor: "acme", adapter: "weather", kind: "wind-speed" } }
