import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Channel } from "../../../src/domain/Channel.ts"
import { AdapterId, ChannelId, ServiceId, Tag } from "../../../src/domain/Identifier.ts"
import { builtinKind } from "../../../src/domain/Kind.ts"
import type { Service } from "../../../src/domain/Service.ts"
import {
  channelInA,
  ChannelJson,
  ChannelsJson,
  nodeInA,
  NodeJson,
  NodesJson
} from "../../../src/vocabulary/a/index.ts"
import { channel, service } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "./expectations.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

const at0600 = Date.UTC(2026, 10, 22, 6, 0, 0)
const hall = ServiceId.make("service:hall@sim")
const adapter = AdapterId.make("sim@foxbox.org")

const thermometer: Channel = {
  id: ChannelId.make("getter:temp@sim"),
  service: hall,
  adapter,
  mechanism: "getter",
  kind: builtinKind("ActualTemperature"),
  tags: [Tag.make("kitchen"), Tag.make("climate")],
  updated: null,
  lastSeen: at0600,
  pushMs: 0
}
const thermometerJson = {
  id: "getter:temp@sim",
  node: "service:hall@sim",
  tags: ["climate", "kitchen"],
  last_seen: "2026-11-22T06:00:00.000+00:00",
  mechanism: { Get: { kind: { ActualTemperature: [] }, updated: null } }
}

const thermostat: Channel = {
  id: ChannelId.make("setter:thermostat@sim"),
  service: hall,
  adapter,
  mechanism: "setter",
  kind: builtinKind("Thermostat"),
  tags: [],
  updated: at0600 + 1,
  lastSeen: null,
  pushMs: 250
}
const thermostatJson = {
  id: "setter:thermostat@sim",
  node: "service:hall@sim",
  tags: [],
  last_seen: null,
  mechanism: { Set: { kind: { Thermostat: [] }, push: [250], updated: "2026-11-22T06:00:00.001+00:00" } }
}

const hallService: Service = {
  id: hall,
  adapter,
  tags: [Tag.make("upstairs")],
  properties: { name: "Hall", model: "sim-1" },
  getters: [thermometer],
  setters: [thermostat]
}
const hallJson = { id: "service:hall@sim", tags: ["upstairs"], inputs: [thermometerJson], outputs: [thermostatJson] }

describe("Channel (vocabulary A)", () => {
  it("writes an input channel with exactly id, node, tags, last_seen and a Get mechanism of kind and updated", () => {
    expect(onTheWire(ChannelJson.write(thermometer))).toStrictEqual(thermometerJson)
  })

  it("writes an output channel's Set mechanism with kind, push [ms] and updated", () => {
    expect(onTheWire(ChannelJson.write(thermostat))).toStrictEqual(thermostatJson)
  })

  it("writes a list sorted by id, whatever the order given", () => {
    expect(onTheWire(ChannelsJson.write([thermostat, thermometer]))).toStrictEqual([thermometerJson, thermostatJson])
  })

  it("reads a channel back as A shows it, without its adapter", () => {
    const { adapter: _, ...expected } = thermometer
    expect(decoded(decode(ChannelsJson, [thermometerJson]))).toEqual([{ ...expected, tags: ["climate", "kitchen"] }])
  })

  it("reads a timestamp with any offset", () => {
    const json = { ...thermometerJson, last_seen: "2026-11-22T07:00:00+01:00" }
    expect(decoded(decode(ChannelsJson, [json]))[0]?.lastSeen).toBe(at0600)
  })

  it("rejects a field A does not show, naming it", () => {
    expect(rejection(decode(ChannelsJson, [{ ...thermometerJson, adapter: "sim@foxbox.org" }])))
      .toMatch(/^body\[0\]: unknown field "adapter"/)
    const get = { Get: { kind: { OnOff: [] }, updated: null, push: [0] } }
    expect(rejection(decode(ChannelsJson, [{ ...thermometerJson, mechanism: get }])))
      .toMatch(/^body\[0\]\.mechanism\.Get: unknown field "push"/)
  })

  it("rejects a channel that misses a field", () => {
    const { last_seen: _, ...json } = thermometerJson
    expect(rejection(decode(ChannelsJson, [json]))).toBe(`body[0]: missing field "last_seen"`)
  })

  it("rejects a push that is not one integer of milliseconds >= 0", () => {
    const withPush = (push: unknown) => ({
      ...thermostatJson,
      mechanism: { Set: { kind: { Thermostat: [] }, push, updated: null } }
    })
    expect(rejection(decode(ChannelsJson, [withPush([1, 2])]))).toMatch(/^body\[0\]\.mechanism\.Set\.push: expected \[ms\]/)
    expect(rejection(decode(ChannelsJson, [withPush(250)]))).toMatch(/^body\[0\]\.mechanism\.Set\.push: expected \[ms\]/)
    expect(rejection(decode(ChannelsJson, [withPush([-1])]))).toMatch(/^body\[0\]\.mechanism\.Set\.push\[0\]: expected an integer/)
    expect(rejection(decode(ChannelsJson, [withPush([0.5])]))).toMatch(/^body\[0\]\.mechanism\.Set\.push\[0\]: expected an integer/)
  })

  it("rejects a mechanism other than Get and Set", () => {
    expect(rejection(decode(ChannelsJson, [{ ...thermometerJson, mechanism: { Getter: {} } }])))
      .toMatch(/^body\[0\]\.mechanism: unknown mechanism "Getter"/)
    expect(rejection(decode(ChannelsJson, [{ ...thermometerJson, mechanism: "getter" }])))
      .toMatch(/^body\[0\]\.mechanism: expected \{"Get": …} or \{"Set": …}/)
  })

  it("reads back what it writes, as A shows it: decode(encode(c)) = channelInA(c)", () => {
    fc.assert(fc.property(channel, (c) => {
      expect(decoded(decode(ChannelsJson, onTheWire([ChannelJson.write(c)])))).toEqual([channelInA(c)])
    }))
  })

  it("writes exactly the keys of docs/reference.md §5", () => {
    fc.assert(fc.property(channel, (c) => {
      const json = onTheWire(ChannelJson.write(c)) as Record<string, Record<string, Record<string, unknown>>>
      expect(Object.keys(json).sort()).toEqual(["id", "last_seen", "mechanism", "node", "tags"])
      const mechanism = json.mechanism ?? {}
      expect(Object.keys(mechanism)).toEqual([c.mechanism === "getter" ? "Get" : "Set"])
      expect(Object.keys(Object.values(mechanism)[0] ?? {}).sort())
        .toEqual(c.mechanism === "getter" ? ["kind", "updated"] : ["kind", "push", "updated"])
    }))
  })
})

describe("Node", () => {
  it("writes exactly id, tags, inputs and outputs: no adapter, no properties", () => {
    expect(onTheWire(NodeJson.write(hallService))).toStrictEqual(hallJson)
  })

  it("writes its channels and a list of nodes sorted by id", () => {
    const b = ChannelId.make("getter:b@sim")
    const a = ChannelId.make("getter:a@sim")
    const node = { ...hallService, getters: [{ ...thermometer, id: b }, { ...thermometer, id: a }] }
    const other = { ...hallService, id: ServiceId.make("service:attic@sim"), getters: [], setters: [] }
    const json = onTheWire(NodesJson.write([node, other])) as ReadonlyArray<{ id: string; inputs: ReadonlyArray<{ id: string }> }>
    expect(json.map((n) => n.id)).toEqual(["service:attic@sim", "service:hall@sim"])
    expect(json[1]?.inputs.map((c) => c.id)).toEqual(["getter:a@sim", "getter:b@sim"])
  })

  it("reads a node back as A shows it", () => {
    expect(decoded(decode(NodesJson, [hallJson]))).toEqual([nodeInA(hallService)])
  })

  it("rejects an output channel with a Get mechanism", () => {
    const json = { ...hallJson, outputs: [thermometerJson] }
    expect(rejection(decode(NodesJson, [json]))).toBe("body[0].outputs[0].mechanism: an output channel has a Set mechanism")
  })

  it("rejects a channel that names another node", () => {
    const json = { ...hallJson, inputs: [{ ...thermometerJson, node: "service:attic@sim" }] }
    expect(rejection(decode(NodesJson, [json]))).toMatch(/^body\[0\]\.inputs\[0\]\.node: expected the id of the node/)
  })

  it("rejects B's service fields, naming them", () => {
    expect(rejection(decode(NodesJson, [{ ...hallJson, properties: {} }]))).toMatch(/^body\[0\]: unknown field "properties"/)
  })

  it("reads back what it writes, as A shows it: decode(encode(s)) = nodeInA(s)", () => {
    fc.assert(fc.property(fc.array(service, { maxLength: 3 }), (services) => {
      const sorted = [...services].sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
      expect(decoded(decode(NodesJson, onTheWire(NodesJson.write(services))))).toEqual(sorted.map(nodeInA))
    }))
  })
})
