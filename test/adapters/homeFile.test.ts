import { describe, expect, it } from "@effect/vitest"
import { Option, Result } from "effect"
import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"
import { decodeHome, type Home, parseHome } from "../../src/adapters/simulator/HomeFile.ts"
import { kindValueType } from "../../src/domain/Kind.ts"

const decoded = (json: unknown): Home => {
  const result = decodeHome(json, "home.json")
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}
const problem = (json: unknown): string =>
  Result.match(decodeHome(json, "home.json"), { onSuccess: () => "decoded", onFailure: (e) => e.message })
const oneService = (fields: object) => ({ services: [{ id: "service:a@sim", ...fields }] })

describe("home file", () => {
  it("reads the example of the specification", () => {
    const home = decoded({
      adapter: "simulator@gateway.local",
      services: [
        {
          id: "service:hall-light@sim",
          tags: ["entrance"],
          properties: { name: "Hall light", model: "Sim bulb" },
          latency_ms: 5,
          getters: [{ id: "getter:hall-light-on@sim", kind: "OnOff", tags: [], value: { OnOff: "Off" } }],
          setters: [{ id: "setter:hall-light-on@sim", kind: "OnOff", tags: [], drives: "getter:hall-light-on@sim" }]
        },
        {
          id: "service:front-door@sim",
          tags: ["entrance", "door"],
          getters: [{
            id: "getter:front-door@sim",
            kind: "OpenClosed",
            cycle: { every_ms: 2000, values: [{ OpenClosed: "Closed" }, { OpenClosed: "Open" }] }
          }]
        }
      ]
    })
    const [light, door] = home.services
    expect(light?.latency_ms).toBe(5)
    expect(light?.properties).toEqual({ name: "Hall light", model: "Sim bulb" })
    expect(light?.getters[0]?.value).toEqual(Option.some({ _tag: "OnOff", state: "Off" }))
    expect(light?.setters[0]?.drives).toBe("getter:hall-light-on@sim")
    expect(door?.getters[0]?.cycle).toEqual({
      every_ms: 2000,
      values: [{ _tag: "OpenClosed", state: "Closed" }, { _tag: "OpenClosed", state: "Open" }]
    })
  })

  it("defaults the adapter to simulator@gateway.local and every optional field to nothing", () => {
    const home = decoded(oneService({ getters: [{ id: "getter:a@sim", kind: "OnOff" }] }))
    expect(home.adapter).toBe("simulator@gateway.local")
    const service = home.services[0]
    expect(service).toMatchObject({ tags: [], properties: {}, latency_ms: 0, setters: [] })
    expect(service?.fail).toBeUndefined()
    expect(service?.getters[0]).toMatchObject({ tags: [], value: Option.none() })
    expect(service?.getters[0]?.cycle).toBeUndefined()
    expect(service?.getters[0]?.watch).toBeUndefined()
  })

  it("reads a null value as no value yet", () => {
    const home = decoded(oneService({ getters: [{ id: "getter:a@sim", kind: "OnOff", value: null }] }))
    expect(home.services[0]?.getters[0]?.value).toEqual(Option.none())
  })

  it("reads fail, watch and extension kinds", () => {
    const kind = { vendor: "acme", adapter: "sim", kind: "dial", type: "ExtNumeric" }
    const home = decoded(oneService({
      fail: "timeout",
      getters: [{
        id: "getter:a@sim",
        kind,
        watch: "thresholds-only",
        value: { ExtNumeric: { value: 3, vendor: "acme", adapter: "sim", kind: "dial" } }
      }]
    }))
    expect(home.services[0]?.fail).toBe("timeout")
    expect(home.services[0]?.getters[0]?.watch).toBe("thresholds-only")
    expect(home.services[0]?.getters[0]?.kind).toEqual({ _tag: "Extension", ...kind })
  })

  it.each([
    [
      "an unknown kind",
      oneService({ getters: [{ id: "g", kind: "OnOff" }, { id: "h", kind: "Toaster" }] }),
      /^home\.json: services\[0\]\.getters\[1\]\.kind: unknown kind "Toaster"/
    ],
    [
      "a value of another type than its kind",
      oneService({ getters: [{ id: "g", kind: "OnOff", value: { OpenClosed: "Open" } }] }),
      /^home\.json: services\[0\]\.getters\[0\]\.value: kind OnOff carries OnOff values, got a OpenClosed$/
    ],
    [
      "a malformed value",
      oneService({ getters: [{ id: "g", kind: "LightColor", value: { Color: { h: 1, s: 2, v: 0 } } }] }),
      /^home\.json: services\[0\]\.getters\[0\]\.value\.Color\.s: must be between 0 and 1$/
    ],
    [
      "a cycle value of another type than its kind",
      oneService({ getters: [{ id: "g", kind: "OnOff", cycle: { every_ms: 5, values: [{ OnOff: "On" }, { Unit: null }] } }] }),
      /^home\.json: services\[0\]\.getters\[0\]\.cycle\.values\[1\]: kind OnOff carries OnOff values, got a Unit$/
    ],
    [
      "an empty cycle",
      oneService({ getters: [{ id: "g", kind: "OnOff", cycle: { every_ms: 5, values: [] } }] }),
      /^home\.json: services\[0\]\.getters\[0\]\.cycle\.values: must list at least one value$/
    ],
    [
      "a cycle of period zero",
      oneService({ getters: [{ id: "g", kind: "OnOff", cycle: { every_ms: 0, values: [{ OnOff: "On" }] } }] }),
      /^home\.json: services\[0\]\.getters\[0\]\.cycle\.every_ms: /
    ],
    [
      "drives naming no getter",
      oneService({ setters: [{ id: "s", kind: "OnOff", drives: "getter:nowhere@sim" }] }),
      /^home\.json: services\[0\]\.setters\[0\]\.drives: no getter "getter:nowhere@sim" in this home$/
    ],
    [
      "drives naming a getter of another value type",
      {
        services: [
          { id: "service:a@sim", getters: [{ id: "g", kind: "Log" }] },
          { id: "service:b@sim", setters: [{ id: "s", kind: "OnOff", drives: "g" }] }
        ]
      },
      /^home\.json: services\[1\]\.setters\[0\]\.drives: getter "g" carries String values but this setter carries OnOff$/
    ],
    [
      "two services with one id",
      { services: [{ id: "service:a@sim" }, { id: "service:b@sim" }, { id: "service:a@sim" }] },
      /^home\.json: services\[2\]\.id: service id "service:a@sim" is also used at services\[0\]$/
    ],
    [
      "two channels with one id, even of different mechanisms",
      {
        services: [
          { id: "service:a@sim", getters: [{ id: "x", kind: "OnOff" }] },
          { id: "service:b@sim", setters: [{ id: "x", kind: "OnOff" }] }
        ]
      },
      /^home\.json: services\[1\]\.setters\[0\]\.id: channel id "x" is also used at services\[0\]\.getters\[0\]$/
    ],
    ["a misspelt field", oneService({ latency: 5 }), /^home\.json: services\[0\]\.latency: unknown field$/],
    ["a missing id", { services: [{ tags: [] }] }, /^home\.json: services\[0\]\.id: missing field$/],
    ["an unknown fail mode", oneService({ fail: "sometimes" }), /^home\.json: services\[0\]\.fail: /],
    ["an unknown watch mode", oneService({ getters: [{ id: "g", kind: "OnOff", watch: "always" }] }), /services\[0\]\.getters\[0\]\.watch: /],
    ["a negative latency", oneService({ latency_ms: -1 }), /^home\.json: services\[0\]\.latency_ms: /],
    ["an empty tag", oneService({ tags: ["ok", ""] }), /^home\.json: services\[0\]\.tags\[1\]: must not be empty$/],
    [
      "a tag holding a control character, even where its list's tags joined read as a list given before",
      oneService({ tags: ["hall", "light"], getters: [{ id: "g", kind: "OnOff", tags: ["hall\u0000light"] }] }),
      /^home\.json: services\[0\]\.getters\[0\]\.tags\[0\]: /
    ],
    ["a property that is not a string", oneService({ properties: { floor: 1 } }), /services\[0\]\.properties\.floor: /],
    ["no services", {}, /^home\.json: services: missing field$/],
    ["not an object", [], /^home\.json: /]
  ])("refuses %s, naming the place in the file", (_, json, message) => {
    expect(problem(json)).toMatch(message)
  })

  it("refuses text that is not JSON, naming the file", () => {
    const result = parseHome("{ \"services\": [", "my-home.json")
    expect(Result.isFailure(result) && result.failure.message).toMatch(/^my-home\.json: not valid JSON: /)
  })
})

describe("demo home", () => {
  const home = decoded(demoHome)
  const channels = home.services.flatMap((s) => [...s.getters, ...s.setters])

  it("is a valid home file with about a dozen devices of the simulator", () => {
    expect(home.adapter).toBe("simulator@gateway.local")
    expect(home.services.length).toBeGreaterThanOrEqual(10)
  })

  it("holds only values that match their channel's kind", () => {
    let checked = 0
    for (const getter of home.services.flatMap((s) => s.getters)) {
      const values = [...Option.toArray(getter.value), ...(getter.cycle?.values ?? [])]
      for (const value of values) {
        expect(value._tag, getter.id).toBe(kindValueType(getter.kind))
        checked++
      }
    }
    expect(checked).toBeGreaterThan(10)
  })

  it("mints ids as docs/reference.md §1 says", () => {
    for (const service of home.services) expect(service.id).toMatch(/^service:[a-z0-9-]+@sim$/)
    for (const service of home.services) {
      for (const g of service.getters) expect(g.id).toMatch(/^getter:[a-z0-9-]+@sim$/)
      for (const s of service.setters) expect(s.id).toMatch(/^setter:[a-z0-9-]+@sim$/)
    }
  })

  it("has rooms, names and models", () => {
    const tags = new Set(home.services.flatMap((s) => s.tags))
    for (const tag of ["kitchen", "hall", "bedroom", "light", "door"]) expect(tags).toContain(tag)
    for (const service of home.services) {
      expect(service.properties.name, service.id).toBeTruthy()
      expect(service.properties.model, service.id).toBeTruthy()
    }
  })

  it("shows every feature of the simulator", () => {
    const kinds = new Set(channels.map((c) => (c.kind._tag === "Builtin" ? c.kind.name : "Extension")))
    for (const kind of ["OnOff", "LightColor", "OpenClosed", "DoorLocked", "Thermostat", "ActualTemperature", "TakeSnapshot", "Log", "Ready"]) {
      expect(kinds).toContain(kind)
    }
    const getters = home.services.flatMap((s) => s.getters)
    expect(getters.some((g) => g.cycle !== undefined)).toBe(true)
    expect(getters.some((g) => g.watch === "thresholds-only")).toBe(true)
    const setters = home.services.flatMap((s) => s.setters)
    expect(setters.filter((s) => s.drives !== undefined).length).toBeGreaterThanOrEqual(4)
    expect(setters.some((s) => s.drives === undefined)).toBe(true)
  })
})
