import * as Option from "effect/Option"
import { describe, expect, it } from "vitest"
import { ChannelId, ServiceId, Tag } from "../../src/client/index.ts"
import type { Device, DeviceChannel } from "../../src/dashboard/api/Devices.ts"
import { cardPlan } from "../../src/dashboard/state/CardPlan.ts"
import { byRoom, firstOf, roomOf } from "../../src/dashboard/text/Rooms.ts"
import { builtinKind, type BuiltinKindName, type Kind } from "../../src/domain/Kind.ts"

const channel = (id: string, mechanism: "getter" | "setter", kind: Kind): DeviceChannel => ({
  id: ChannelId.make(id),
  mechanism,
  kind,
  tags: []
})

const service = (id: string, tags: ReadonlyArray<string>, getters: ReadonlyArray<BuiltinKindName | Kind>, setters: ReadonlyArray<BuiltinKindName | Kind>): Device => {
  const kind = (k: BuiltinKindName | Kind) => (typeof k === "string" ? builtinKind(k) : k)
  return {
    id: ServiceId.make(id),
    tags: tags.map((tag) => Tag.make(tag)),
    properties: Option.none(),
    getters: getters.map((k, i) => channel(`getter:${id}-${i}`, "getter", kind(k))),
    setters: setters.map((k, i) => channel(`setter:${id}-${i}`, "setter", kind(k)))
  }
}

const ids = (channels: ReadonlyArray<DeviceChannel>) => channels.map((c) => c.id)

describe("a device's card", () => {
  it("makes a light's switch its main control, shows its state once, and slides its colour's brightness", () => {
    const light = service("light", [], ["OnOff", "LightColor"], ["LightColor", "OnOff"])
    const plan = cardPlan(light)
    expect(plan.controls.map((c) => [c.setter.id, c.shows?.id, c.main])).toEqual([
      ["setter:light-0", "getter:light-1", false],
      ["setter:light-1", "getter:light-0", true]
    ])
    expect(plan.readings).toEqual([])
    expect(plan.brightness?._tag).toBe("ColourBrightness")
  })

  it("drives a light's brightness channel where it has one, and shows it as the slider only", () => {
    const level: Kind = { _tag: "Extension", vendor: "zigbee2mqtt", adapter: "mqtt", kind: "brightness", type: "ExtNumeric" }
    const plan = cardPlan(service("dimmer", [], ["OnOff", level], ["OnOff", level]))
    expect(plan.brightness?._tag).toBe("Channel")
    expect(plan.brightness?.control.shows?.id).toBe("getter:dimmer-1")
    expect(plan.controls.map((c) => c.setter.id)).toEqual(["setter:dimmer-0"])
    expect(plan.readings).toEqual([])
  })

  it("keeps a reading for each getter no control shows: a thermostat's temperature beside its set point", () => {
    const plan = cardPlan(service("thermostat", [], ["Thermostat", "ActualTemperature"], ["Thermostat"]))
    expect(plan.controls.map((c) => [c.shows?.id, c.main])).toEqual([["getter:thermostat-0", false]])
    expect(ids(plan.readings)).toEqual(["getter:thermostat-1"])
  })

  it("leaves a getter as a reading when its setter's control has no place for a value (a button)", () => {
    const plan = cardPlan(service("motion", [], ["Ready"], ["Ready"]))
    expect(plan.controls.map((c) => c.shows)).toEqual([undefined])
    expect(ids(plan.readings)).toEqual(["getter:motion-0"])
  })

  it("shows a getter by one control only, and none for a kind of which the service has two getters", () => {
    const plan = cardPlan(service("twins", [], ["OnOff", "OpenClosed", "OpenClosed"], ["OnOff", "OnOff", "OpenClosed"]))
    expect(plan.controls.map((c) => c.shows?.id)).toEqual(["getter:twins-0", undefined, undefined])
    expect(ids(plan.readings)).toEqual(["getter:twins-1", "getter:twins-2"])
  })
})

describe("rooms", () => {
  it("reads a room from its room: tag, and groups services by room, in order, those in no room last", () => {
    const hall = service("hall-light", ["light", "room:Hall"], [], [])
    const porch = service("porch", ["porch"], [], [])
    const kitchen = service("oven", ["room:Kitchen"], [], [])
    const bare = service("bare", ["room:"], [], [])
    expect(roomOf(hall)).toBe("Hall")
    expect(roomOf(bare)).toBeUndefined()
    expect(byRoom([porch, kitchen, hall, bare]).map((room) => [room.name, room.services.map((s) => s.id)])).toEqual([
      ["Hall", ["hall-light"]],
      ["Kitchen", ["oven"]],
      [undefined, ["porch", "bare"]]
    ])
  })

  it("takes the first services of the rooms, in their rooms, for the cards drawn first", () => {
    const rooms = byRoom(["a", "b", "c", "d", "e"].map((id, i) => service(id, i < 3 ? ["room:A"] : ["room:B"], [], [])))
    const taken = (count: number) => firstOf(rooms, count).map((room) => [room.name, room.services.map((s) => s.id)])
    expect(taken(2)).toEqual([["A", ["a", "b"]]])
    expect(taken(4)).toEqual([["A", ["a", "b", "c"]], ["B", ["d"]]])
    expect(taken(9)).toEqual([["A", ["a", "b", "c"]], ["B", ["d", "e"]]])
  })
})
