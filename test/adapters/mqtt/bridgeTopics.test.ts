import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { readTopic } from "../../../src/adapters/mqtt/BridgeMessages.ts"

/** A segment of a friendly name that is not one Zigbee2MQTT gives a meaning to. */
const segment = fc.stringMatching(/^[a-z0-9_ .-]{1,12}$/).filter((s) => !["set", "get", "availability"].includes(s))
/** A friendly name: one segment or several (`kitchen/ceiling`), never starting with `bridge`. */
const friendlyName = fc.array(segment, { minLength: 1, maxLength: 3 }).map((segments) => segments.join("/")).filter((name) => !name.startsWith("bridge"))

describe("topics under the base topic", () => {
  it("reads the bridge's own topics, and ignores the bridge topics it does not follow", () => {
    expect(readTopic("bridge/devices")).toEqual({ _tag: "Devices" })
    expect(readTopic("bridge/state")).toEqual({ _tag: "BridgeState" })
    expect(readTopic("bridge/info")).toEqual({ _tag: "Info" })
    expect(readTopic("bridge/response/device/rename")).toEqual({ _tag: "Ignored" })
    expect(readTopic("bridge/request/device/set")).toEqual({ _tag: "Ignored" })
  })

  it("reads a device's name as its state topic and <name>/availability as its availability", () =>
    fc.assert(fc.property(friendlyName, (name) => {
      expect(readTopic(name)).toEqual({ _tag: "State", name })
      expect(readTopic(`${name}/availability`)).toEqual({ _tag: "Availability", name })
    })))

  it("reads every /set and /get as a command, never as a state: whole, per attribute, per endpoint; a whole device's /get naming the device", () =>
    fc.assert(fc.property(friendlyName, fc.constantFrom("set", "get"), fc.option(segment, { nil: undefined }), (name, verb, attribute) => {
      const topic = attribute === undefined ? `${name}/${verb}` : `${name}/${verb}/${attribute}`
      expect(readTopic(topic)).toEqual(verb === "get" && attribute === undefined ? { _tag: "Get", name } : { _tag: "Command" })
    })))

  it("reads the documented command topics as Zigbee2MQTT does", () => {
    for (const topic of ["living_room_light/set", "living_room_light/set/state", "switch/left/set", "hall_thermostat/get/local_temperature"]) {
      expect({ topic, read: readTopic(topic) }).toEqual({ topic, read: { _tag: "Command" } })
    }
    expect(readTopic("living_room_light/get")).toEqual({ _tag: "Get", name: "living_room_light" })
    expect(readTopic("switch/left/get")).toEqual({ _tag: "Get", name: "switch/left" })
    // A segment that only begins with `set` is part of a name.
    expect(readTopic("garden/settings")).toEqual({ _tag: "State", name: "garden/settings" })
    expect(readTopic("set")).toEqual({ _tag: "State", name: "set" })
  })
})
