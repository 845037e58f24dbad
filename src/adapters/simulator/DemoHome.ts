/**
 * The built-in demo home, used when the gateway starts without `--home`: a small house in the home file
 * format of the simulator (docs/simulator.md). Kept as a module, not a .json file, so that the build
 * carries it in dist/ with no copy step. It is decoded like any home file, so it must stay valid.
 */

/** The tag that puts a device in a room, as the dashboard groups them (docs/dashboard.md). */
const room = (name: string) => `room:${name}`

const light = (local: string, area: string, name: string, on: "On" | "Off", h: number) => ({
  id: `service:${local}@sim`,
  tags: [area, "light", room(area.charAt(0).toUpperCase() + area.slice(1))],
  properties: { name, model: "Sim colour bulb E27" },
  latency_ms: 20,
  getters: [
    { id: `getter:${local}-on@sim`, kind: "OnOff", tags: [], value: { OnOff: on } },
    { id: `getter:${local}-color@sim`, kind: "LightColor", tags: [], value: { Color: { h, s: 0.35, v: 0.8 } } }
  ],
  setters: [
    { id: `setter:${local}-on@sim`, kind: "OnOff", tags: [], drives: `getter:${local}-on@sim` },
    { id: `setter:${local}-color@sim`, kind: "LightColor", tags: [], drives: `getter:${local}-color@sim` }
  ]
})

const contact = (local: string, tags: ReadonlyArray<string>, name: string) => ({
  id: `service:${local}@sim`,
  tags,
  properties: { name, model: "Sim contact sensor" },
  getters: [{ id: `getter:${local}@sim`, kind: "OpenClosed", tags: [], value: { OpenClosed: "Closed" } }]
})

/** The camera's image: an extension kind of Binary values (vocabulary B's `Accept: image/gif` reads the bytes). */
const cameraImage = { vendor: "sim", adapter: "camera", kind: "image", type: "Binary" }

/** A 1×1 GIF, the smallest picture a browser shows. */
const snapshot = {
  data: [
    71, 73, 70, 56, 57, 97, 1, 0, 1, 0, 128, 0, 0, 0, 0, 0, 255, 255, 255, 33, 249, 4, 1, 0, 0, 0, 0, 44, 0, 0, 0, 0, 1, 0,
    1, 0, 0, 2, 2, 68, 1, 0, 59
  ],
  mimetype: "image/gif"
}

export const demoHome = {
  adapter: "simulator@gateway.local",
  services: [
    light("kitchen-light", "kitchen", "Kitchen ceiling light", "Off", 40),
    light("hall-light", "hall", "Hall light", "On", 30),
    light("bedroom-light", "bedroom", "Bedside lamp", "Off", 280),
    contact("front-door", ["hall", "door", "entrance", room("Hall")], "Front door"),
    contact("back-door", ["kitchen", "door", room("Kitchen")], "Back door"),
    contact("bedroom-window", ["bedroom", "window", room("Bedroom")], "Bedroom window"),
    {
      // Someone keeps airing the kitchen: this window opens and closes by itself.
      id: "service:kitchen-window@sim",
      tags: ["kitchen", "window", room("Kitchen")],
      properties: { name: "Kitchen window", model: "Sim contact sensor" },
      getters: [
        {
          id: "getter:kitchen-window@sim",
          kind: "OpenClosed",
          tags: [],
          cycle: { every_ms: 15000, values: [{ OpenClosed: "Closed" }, { OpenClosed: "Open" }] }
        }
      ]
    },
    {
      id: "service:front-door-lock@sim",
      tags: ["hall", "door", "entrance", "lock", room("Hall")],
      properties: { name: "Front door lock", model: "Sim smart lock" },
      latency_ms: 150,
      getters: [{ id: "getter:front-door-lock@sim", kind: "DoorLocked", tags: [], value: { DoorLocked: "Locked" } }],
      setters: [
        { id: "setter:front-door-lock@sim", kind: "DoorLocked", tags: [], drives: "getter:front-door-lock@sim" }
      ]
    },
    {
      id: "service:thermostat@sim",
      tags: ["living-room", "heating", room("Living room")],
      properties: { name: "Living room thermostat", model: "Sim thermostat T2" },
      latency_ms: 50,
      getters: [
        { id: "getter:thermostat-target@sim", kind: "Thermostat", tags: [], value: { Temperature: { C: 20 } } },
        {
          id: "getter:living-room-temperature@sim",
          kind: "ActualTemperature",
          tags: [],
          cycle: {
            every_ms: 30000,
            values: [
              { Temperature: { C: 19.5 } },
              { Temperature: { C: 19.8 } },
              { Temperature: { C: 20.1 } },
              { Temperature: { C: 19.8 } }
            ]
          }
        }
      ],
      setters: [
        { id: "setter:thermostat-target@sim", kind: "Thermostat", tags: [], drives: "getter:thermostat-target@sim" }
      ]
    },
    {
      // A battery sensor that only wakes up on thresholds: an `Always` watch is refused.
      id: "service:garden-thermometer@sim",
      tags: ["garden", "outdoor", room("Garden")],
      properties: { name: "Garden thermometer", model: "Sim outdoor sensor" },
      getters: [
        {
          id: "getter:garden-temperature@sim",
          kind: "ActualTemperature",
          tags: [],
          value: { Temperature: { C: 8.5 } },
          watch: "thresholds-only"
        }
      ]
    },
    {
      id: "service:hall-motion@sim",
      tags: ["hall", "motion", room("Hall")],
      properties: { name: "Hall motion sensor", model: "Sim PIR sensor" },
      getters: [{ id: "getter:hall-motion@sim", kind: "Ready", tags: [], value: { Unit: null } }]
    },
    {
      id: "service:front-door-camera@sim",
      tags: ["hall", "entrance", "camera", room("Hall")],
      properties: { name: "Front door camera", model: "Sim doorbell camera" },
      latency_ms: 300,
      getters: [{ id: "getter:front-door-camera-image@sim", kind: cameraImage, tags: [], value: { Binary: snapshot } }],
      setters: [{ id: "setter:front-door-camera-snapshot@sim", kind: "TakeSnapshot", tags: [] }]
    },
    {
      id: "service:kitchen-speaker@sim",
      tags: ["kitchen", "speaker", room("Kitchen")],
      properties: { name: "Kitchen speaker", model: "Sim smart speaker" },
      setters: [{ id: "setter:kitchen-speaker-log@sim", kind: "Log", tags: [] }]
    },
    {
      id: "service:oven@sim",
      tags: ["kitchen", "appliance", room("Kitchen")],
      properties: { name: "Oven", model: "Sim oven O60" },
      getters: [
        { id: "getter:oven-temperature@sim", kind: "OvenTemperature", tags: [], value: { Temperature: { C: 21 } } },
        { id: "getter:oven-timer@sim", kind: "RemainingTime", tags: [], value: { Duration: 0 } }
      ],
      setters: [{ id: "setter:oven-timer@sim", kind: "Countdown", tags: [], drives: "getter:oven-timer@sim" }]
    }
  ]
}
