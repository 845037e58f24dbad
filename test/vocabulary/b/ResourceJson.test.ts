import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { AdapterId, type Channel, ChannelId, type Service, ServiceId, Tag } from "../../../src/domain/index.ts"
import {
  ChannelJson,
  ChannelsJson,
  ServiceJson,
  ServicesJson
} from "../../../src/vocabulary/b/index.ts"
import { channel, service } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "../common/expectations.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

const light: Channel = {
  id: ChannelId.make("getter:light@sim"),
  service: ServiceId.make("service:hall@sim"),
  adapter: AdapterId.make("simulator@foxbox.org"),
  mechanism: "getter",
  kind: { _tag: "Builtin", name: "OnOff" },
  tags: [Tag.make("hall"), Tag.make("light")],
  updated: Date.UTC(2026, 10, 22, 6),
  lastSeen: null,
  pushMs: 0
}
const lightJson = {
  id: "getter:light@sim",
  service: "service:hall@sim",
  adapter: "simulator@foxbox.org",
  mechanism: "getter",
  kind: "OnOff",
  tags: ["hall", "light"],
  updated: "2026-11-22T06:00:00.000+00:00",
  last_seen: null
}
const hall: Service = {
  id: ServiceId.make("service:hall@sim"),
  adapter: AdapterId.make("simulator@foxbox.org"),
  tags: [],
  properties: { name: "Hall", model: "Sim 1" },
  getters: [light],
  setters: []
}
const hallJson = {
  id: "service:hall@sim",
  adapter: "simulator@foxbox.org",
  tags: [],
  properties: { name: "Hall", model: "Sim 1" },
  getters: [lightJson],
  setters: []
}

/** B does not carry `push`: a channel read back has pushMs 0. */
const withoutPush = (c: Channel): Channel => ({ ...c, pushMs: 0 })
const serviceWithoutPush = (s: Service): Service => ({
  ...s,
  getters: s.getters.map(withoutPush),
  setters: s.setters.map(withoutPush)
})

describe("Channel in vocabulary B (docs/reference.md §5)", () => {
  it("is written with exactly the keys of docs/reference.md §5, timestamps in UTC", () => {
    expect(ChannelJson.write(light)).toEqual(lightJson)
    expect(Object.keys(ChannelJson.write(light) as object)).toEqual(
      ["id", "service", "adapter", "mechanism", "kind", "tags", "updated", "last_seen"]
    )
  })

  it("is read back, with pushMs 0 (B has no push)", () => {
    expect(decoded(decode(ChannelJson, lightJson))).toEqual(light)
  })

  it("refuses a missing key, an extra key, and a bad mechanism", () => {
    const { last_seen: _, ...withoutLastSeen } = lightJson
    expect(rejection(decode(ChannelJson, withoutLastSeen))).toBe("body: missing field \"last_seen\"")
    expect(rejection(decode(ChannelJson, { ...lightJson, push: [0] }))).toMatch(/^body: unknown field "push"/)
    expect(rejection(decode(ChannelsJson, [lightJson, { ...lightJson, mechanism: "Get" }]))).toBe(
      "body[1].mechanism: expected \"getter\" or \"setter\", got \"Get\""
    )
  })

  it("decode(encode(c)) = c, push aside", () => {
    fc.assert(fc.property(channel, (c) => {
      expect(decoded(decode(ChannelJson, onTheWire(ChannelJson.write(c))))).toEqual(withoutPush(c))
    }))
  })
})

describe("Service in vocabulary B (docs/reference.md §5)", () => {
  it("is written with exactly the keys of docs/reference.md §5", () => {
    expect(ServiceJson.write(hall)).toEqual(hallJson)
    expect(Object.keys(ServiceJson.write(hall) as object)).toEqual(["id", "adapter", "tags", "properties", "getters", "setters"])
  })

  it("is read back", () => {
    expect(decoded(decode(ServiceJson, hallJson))).toEqual(hall)
  })

  it("refuses a getter listed among setters, and a channel of another service", () => {
    expect(rejection(decode(ServiceJson, { ...hallJson, setters: [lightJson] }))).toBe(
      "body.setters[0].mechanism: expected \"setter\" here"
    )
    expect(rejection(decode(ServiceJson, { ...hallJson, getters: [{ ...lightJson, service: "service:other@sim" }] })))
      .toBe("body.getters[0].service: expected the id of the service that holds the channel")
  })

  it("refuses properties that are not strings", () => {
    expect(rejection(decode(ServiceJson, { ...hallJson, properties: { name: 3 } }))).toBe(
      "body.properties.name: expected a string, got 3"
    )
  })

  it("keeps a property called __proto__ as data", () => {
    const json = JSON.parse("{\"__proto__\": \"x\"}")
    const read = decoded(decode(ServiceJson, { ...hallJson, properties: json }))
    expect(Object.keys(read.properties)).toEqual(["__proto__"])
    expect(onTheWire(ServiceJson.write(read))).toMatchObject({ properties: json })
  })

  it("decode(encode(s)) = s, push aside", () => {
    fc.assert(fc.property(fc.array(service, { maxLength: 3 }), (services) => {
      expect(decoded(decode(ServicesJson, onTheWire(ServicesJson.write(services))))).toEqual(services.map(serviceWithoutPush))
    }))
  })
})
