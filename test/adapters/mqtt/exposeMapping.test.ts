import { describe, expect, it } from "@effect/vitest"
import { Option, Result } from "effect"
import fc from "fast-check"
import { type BridgeDevice, type Expose, readBridgeDevices, readOnline, readState } from "../../../src/adapters/mqtt/BridgeMessages.ts"
import { mapDevice, type MappedDevice } from "../../../src/adapters/mqtt/ExposeMapping.ts"
import type { Point } from "../../../src/adapters/mqtt/Point.ts"
import type { Value } from "../../../src/domain/Value.ts"
import { bridgeDevices } from "../../support/zigbee2mqttBridge.ts"

const devices = (): ReadonlyArray<BridgeDevice> => {
  const read = readBridgeDevices(JSON.stringify(bridgeDevices))
  if (Result.isFailure(read)) throw new Error(read.failure)
  return read.success
}
const mapped = (name: string): MappedDevice => {
  const device = devices().find((d) => d.friendly_name === name)
  const result = device === undefined ? Option.none() : mapDevice(device)
  if (Option.isNone(result)) throw new Error(`${name} is not mapped`)
  return result.value
}
const kindName = (point: Point) => point.kind._tag === "Builtin" ? point.kind.name : `${point.kind.vendor}/${point.kind.kind}:${point.kind.type}`
const table = (device: MappedDevice) =>
  device.points.map((p) => [kindName(p), Option.getOrNull(p.getter), Option.getOrNull(p.setter)])

describe("exposes to kinds", () => {
  it("maps a colour light: state to OnOff, color_hs with brightness to LightColor, other numbers to ExtNumeric, an enum to String", () => {
    expect(table(mapped("living_room_light"))).toEqual([
      ["OnOff", "getter:0x0017880100000001.state@zigbee2mqtt", "setter:0x0017880100000001.state@zigbee2mqtt"],
      ["zigbee2mqtt/color_temp:ExtNumeric", "getter:0x0017880100000001.color_temp@zigbee2mqtt", "setter:0x0017880100000001.color_temp@zigbee2mqtt"],
      ["LightColor", "getter:0x0017880100000001.color@zigbee2mqtt", "setter:0x0017880100000001.color@zigbee2mqtt"],
      ["zigbee2mqtt/effect:String", null, "setter:0x0017880100000001.effect@zigbee2mqtt"],
      ["zigbee2mqtt/linkquality:ExtNumeric", "getter:0x0017880100000001.linkquality@zigbee2mqtt", null]
    ])
  })

  it("maps a contact sensor: contact to OpenClosed, the rest to extensions, published only to getters", () => {
    expect(table(mapped("front_door"))).toEqual([
      ["OpenClosed", "getter:0x00158d0000000002.contact@zigbee2mqtt", null],
      ["zigbee2mqtt/battery:ExtNumeric", "getter:0x00158d0000000002.battery@zigbee2mqtt", null],
      ["zigbee2mqtt/device_temperature:ExtNumeric", "getter:0x00158d0000000002.device_temperature@zigbee2mqtt", null],
      ["zigbee2mqtt/battery_low:ExtBool", "getter:0x00158d0000000002.battery_low@zigbee2mqtt", null]
    ])
  })

  it("maps a thermostat and a lock, their enums to String extensions", () => {
    expect(table(mapped("hall_thermostat"))).toEqual([
      ["ActualTemperature", "getter:0x00124b0000000003.local_temperature@zigbee2mqtt", null],
      ["Thermostat", "getter:0x00124b0000000003.current_heating_setpoint@zigbee2mqtt", "setter:0x00124b0000000003.current_heating_setpoint@zigbee2mqtt"],
      ["zigbee2mqtt/system_mode:String", "getter:0x00124b0000000003.system_mode@zigbee2mqtt", "setter:0x00124b0000000003.system_mode@zigbee2mqtt"]
    ])
    expect(table(mapped("back_door_lock"))).toEqual([
      ["DoorLocked", "getter:0x000d6f0000000004.state@zigbee2mqtt", "setter:0x000d6f0000000004.state@zigbee2mqtt"],
      ["zigbee2mqtt/lock_state:String", "getter:0x000d6f0000000004.lock_state@zigbee2mqtt", null]
    ])
  })

  it("puts the range of a settable number among the service's properties: color_temp's mireds", () => {
    expect(mapped("living_room_light").service.properties).toMatchObject({ color_temp_min: "153", color_temp_max: "500" })
    expect(mapped("hall_thermostat").service.properties).toMatchObject({ current_heating_setpoint_min: "5", current_heating_setpoint_max: "30" })
    expect(Object.keys(mapped("front_door").service.properties).filter((k) => k.endsWith("_min") || k.endsWith("_max"))).toEqual([])
  })

  it("maps a sensor's temperature to ActualTemperature, a getter read in the unit the expose gives", () => {
    const sensor = (unit: string) =>
      mapDevice({
        ieee_address: "0x00158d0000000009",
        friendly_name: "bathroom_sensor",
        definition: { exposes: [{ type: "numeric", name: "temperature", property: "temperature", access: 1, unit }] }
      })
    for (const [unit, read] of [["°C", "C"], ["°F", "F"]] as const) {
      const [point] = Option.getOrElse(Option.map(sensor(unit), (d) => d.points), () => [])
      if (point === undefined) throw new Error(`temperature in ${unit} is not mapped`)
      expect([kindName(point), Option.getOrNull(point.getter), Option.getOrNull(point.setter)])
        .toEqual(["ActualTemperature", "getter:0x00158d0000000009.temperature@zigbee2mqtt", null])
      expect(point.read({ temperature: 21.5, humidity: 40 })).toEqual(Option.some({ _tag: "Temperature", unit: read, degrees: 21.5 }))
      expect(point.read({ humidity: 40 })).toEqual(Option.none())
    }
  })

  it("leaves out the coordinator, disabled devices and devices not interviewed yet", () => {
    const [coordinator, lightDevice] = devices()
    if (coordinator === undefined || lightDevice === undefined) throw new Error("no devices")
    expect(mapDevice(coordinator)).toEqual(Option.none())
    expect(mapDevice({ ...lightDevice, disabled: true })).toEqual(Option.none())
    expect(mapDevice({ ...lightDevice, definition: null })).toEqual(Option.none())
  })

  it("derives ids from the IEEE address, so a renamed device keeps them", () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 40 }), (name) => {
      const [, lightDevice] = devices()
      if (lightDevice === undefined) throw new Error("no light")
      const renamed = mapDevice({ ...lightDevice, friendly_name: name })
      const original = mapDevice(lightDevice)
      expect(Option.map(renamed, (d) => [d.service.id, d.service.getters, d.service.setters]))
        .toEqual(Option.map(original, (d) => [d.service.id, d.service.getters, d.service.setters]))
      expect(Option.map(renamed, (d) => d.service.properties["name"])).toEqual(Option.some(name))
    }))
  })

  it("maps every other numeric or binary feature to an extension kind named by its property", () => {
    const property = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/).filter((p) =>
      !["state", "contact", "temperature", "local_temperature", "current_heating_setpoint", "occupied_heating_setpoint"].includes(p) &&
      !p.startsWith("state_"))
    fc.assert(fc.property(property, fc.constantFrom("numeric", "binary"), fc.integer({ min: 1, max: 7 }), (name, type, access) => {
      const device = mapDevice({
        ieee_address: "0x1",
        friendly_name: "x",
        definition: { exposes: [{ type, name, property: name, access, value_on: true, value_off: false }] }
      })
      const [point] = Option.getOrElse(Option.map(device, (d) => d.points), () => [])
      expect(point?.kind).toEqual({
        _tag: "Extension",
        vendor: "zigbee2mqtt",
        adapter: "zigbee2mqtt@gateway.local",
        kind: name,
        type: type === "numeric" ? "ExtNumeric" : "ExtBool"
      })
      expect(Option.isSome(point?.getter ?? Option.none())).toBe((access & 5) !== 0)
      expect(Option.isSome(point?.setter ?? Option.none())).toBe((access & 2) !== 0)
    }))
  })
})

describe("enums, texts, lists, actions and colours in xy", () => {
  const only = (expose: Expose): Point => {
    const device = mapDevice({ ieee_address: "0x1", friendly_name: "x", definition: { exposes: [expose] } })
    const [point] = Option.getOrElse(Option.map(device, (d) => d.points), () => [])
    if (point === undefined) throw new Error("not mapped")
    return point
  }
  const text = (value: string): Value => ({ _tag: "String", value })

  it("reads an enum or a text as a String and writes one of an enum's values as the expose writes it", () => {
    const mode = only({ type: "enum", name: "system_mode", property: "system_mode", access: 7, values: ["off", "auto", "heat"] })
    expect(mode.kind).toEqual({ _tag: "Extension", vendor: "zigbee2mqtt", adapter: "zigbee2mqtt@gateway.local", kind: "system_mode", type: "String" })
    expect(mode.read({ system_mode: "heat" })).toEqual(Option.some(text("heat")))
    expect(mode.write(text("auto"))).toEqual(Result.succeed({ system_mode: "auto" }))
    expect(mode.write(text("cool"))).toEqual(Result.fail(`Zigbee2MQTT's system_mode takes one of off, auto, heat, not "cool"`))
    const level = only({ type: "enum", name: "sensitivity", property: "sensitivity", access: 7, values: [1, 2, 3] })
    expect(level.read({ sensitivity: 2 })).toEqual(Option.some(text("2")))
    expect(level.write(text("3"))).toEqual(Result.succeed({ sensitivity: 3 }))
    const name = only({ type: "text", name: "device_name", property: "device_name", access: 3 })
    expect(name.write(text("anything at all"))).toEqual(Result.succeed({ device_name: "anything at all" }))
    expect(name.event).toBe(false)
  })

  it("reads a list as Json and writes it back whole", () => {
    const schedule = only({ type: "list", name: "schedule", property: "schedule", access: 3 })
    expect(schedule.kind).toMatchObject({ kind: "schedule", type: "Json" })
    expect(schedule.read({ schedule: [{ hour: 6, temperature: 21 }] })).toEqual(Option.some({ _tag: "Json", value: [{ hour: 6, temperature: 21 }] }))
    expect(schedule.write({ _tag: "Json", value: [1, 2] })).toEqual(Result.succeed({ schedule: [1, 2] }))
  })

  it("reads an action as an event, never an empty one (Zigbee2MQTT clearing the last)", () => {
    const action = only({ type: "enum", name: "action", property: "action", access: 1, values: ["single_left", "single_right"] })
    expect([action.event, Option.isSome(action.getter), Option.isSome(action.setter), action.gettable]).toEqual([true, true, false, false])
    expect(action.read({ action: "single_left", battery: 100 })).toEqual(Option.some(text("single_left")))
    expect(action.read({ action: "" })).toEqual(Option.none())
    expect(action.read({ battery: 100 })).toEqual(Option.none())
  })

  it("reads color_xy with the brightness as LightColor and writes xy to 4 decimals with the brightness", () => {
    const bulb = mapped("hall_bulb")
    const color = bulb.points.find((p) => kindName(p) === "LightColor")
    if (color === undefined) throw new Error("no colour")
    expect(color.properties).toEqual(["color", "brightness"])
    const red = color.read({ color: { x: 0.64, y: 0.33 }, brightness: 127 })
    expect(Option.map(red, (v) => v._tag === "Color" ? [Math.round(v.h) % 360, Math.round(v.s * 100) / 100, v.v] : [])).toEqual(Option.some([0, 1, 127 / 254]))
    expect(color.write({ _tag: "Color", h: 240, s: 1, v: 1 })).toEqual(Result.succeed({ color: { x: 0.15, y: 0.06 }, brightness: 254 }))
    expect(table(bulb).map(([kind]) => kind)).toEqual(["OnOff", "LightColor", "zigbee2mqtt/power_on_behavior:String", "zigbee2mqtt/linkquality:ExtNumeric"])
  })

  it("takes color_hs over color_xy when a light exposes both", () => {
    const [lightDevice] = devices().filter((d) => d.friendly_name === "living_room_light")
    if (lightDevice?.definition === undefined || lightDevice.definition === null) throw new Error("no light")
    // As Zigbee2MQTT lists a Hue colour light's: color_xy, then color_hs, among the light's features.
    const xy = { type: "composite", name: "color_xy", property: "color", access: 7, features: [] }
    const exposes = lightDevice.definition.exposes.map((e) => e.type === "light" ? { ...e, features: [xy, ...e.features ?? []] } : e)
    const both = mapDevice({ ...lightDevice, definition: { ...lightDevice.definition, exposes } })
    const color = Option.getOrUndefined(Option.map(both, (d) => d.points.filter((p) => kindName(p) === "LightColor")))
    expect(color?.map((p) => p.read({ color: { hue: 120, saturation: 50, x: 0.2, y: 0.6 }, brightness: 254 }))).toEqual([
      Option.some({ _tag: "Color", h: 120, s: 0.5, v: 1 })
    ])
  })
})

describe("state messages", () => {
  const setter = (device: MappedDevice, kind: string) => {
    const point = device.points.find((p) => kindName(p) === kind)
    if (point === undefined) throw new Error(`no ${kind}`)
    return point
  }

  it("reads back what a /set writes, for every settable kind (a device's state after the write)", () => {
    const cases: ReadonlyArray<[string, string, fc.Arbitrary<Value>]> = [
      ["living_room_light", "OnOff", fc.constantFrom<Value>({ _tag: "OnOff", state: "On" }, { _tag: "OnOff", state: "Off" })],
      ["back_door_lock", "DoorLocked", fc.constantFrom<Value>({ _tag: "DoorLocked", state: "Locked" }, { _tag: "DoorLocked", state: "Unlocked" })],
      ["hall_thermostat", "Thermostat", fc.double({ min: 5, max: 30, noNaN: true }).map((degrees): Value => ({ _tag: "Temperature", unit: "C", degrees }))],
      [
        "living_room_light",
        "LightColor",
        fc.record({ h: fc.integer({ min: 0, max: 359 }), s: fc.integer({ min: 0, max: 100 }), v: fc.integer({ min: 0, max: 254 }) })
          .map(({ h, s, v }): Value => ({ _tag: "Color", h, s: s / 100, v: v / 254 }))
      ]
    ]
    for (const [name, kind, values] of cases) {
      const point = setter(mapped(name), kind)
      fc.assert(fc.property(values, (value) => {
        const written = point.write(value)
        if (Result.isFailure(written)) throw new Error(written.failure)
        const read = point.read(JSON.parse(JSON.stringify(written.success)))
        expect(Option.map(read, (v) => JSON.parse(JSON.stringify(v)))).toEqual(Option.some(JSON.parse(JSON.stringify(value))))
      }))
    }
  })

  it("reads a contact of true as Closed (Zigbee2MQTT's contact means closed) and false as Open", () => {
    const contact = setter(mapped("front_door"), "OpenClosed")
    expect(contact.read({ contact: true })).toEqual(Option.some({ _tag: "OpenClosed", state: "Closed" }))
    expect(contact.read({ contact: false })).toEqual(Option.some({ _tag: "OpenClosed", state: "Open" }))
    expect(contact.read({ battery: 3 })).toEqual(Option.none())
  })

  it("writes a Fahrenheit setpoint in the device's unit", () => {
    const point = setter(mapped("hall_thermostat"), "Thermostat")
    expect(point.write({ _tag: "Temperature", unit: "F", degrees: 68 })).toEqual(Result.succeed({ current_heating_setpoint: 20 }))
  })

  it("reads online and offline in the JSON form and the legacy plain form, and nothing else", () => {
    expect(readOnline(`{"state":"online"}`)).toEqual(Option.some(true))
    expect(readOnline(`{"state":"offline"}`)).toEqual(Option.some(false))
    expect(readOnline("online")).toEqual(Option.some(true))
    expect(readOnline("offline")).toEqual(Option.some(false))
    expect(readOnline(`{"state":"sleepy"}`)).toEqual(Option.none())
    expect(readOnline("")).toEqual(Option.none())
  })

  it("takes only JSON objects as states, and refuses a device list that is not one", () => {
    expect(readState(`{"state":"ON"}`)).toEqual(Option.some({ state: "ON" }))
    expect(readState(`[1]`)).toEqual(Option.none())
    expect(readState(`not json`)).toEqual(Option.none())
    expect(Result.isFailure(readBridgeDevices(`{"devices": []}`))).toBe(true)
    expect(Result.isFailure(readBridgeDevices(`[{"friendly_name": "x"}]`))).toBe(true)
  })

  it("reads a state's escaped keys as published, whatever payload came before", () => {
    // V8's JSON.parse would read the second `\n` as the first payload's `\\` (src/vocabulary/common/EscapedJson.ts).
    expect(readState(String.raw`{"state":"ON","\\":1}`)).toEqual(Option.some({ state: "ON", "\\": 1 }))
    expect(Option.map(readState(String.raw`{"state":"ON","\n":1}`), Object.keys)).toEqual(Option.some(["state", "\n"]))
  })
})
