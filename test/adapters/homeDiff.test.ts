import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { describeService, diffHomes, sameDescription, sameGetterBehaviour, withoutLeavingChannels } from "../../src/adapters/simulator/HomeDiff.ts"
import { decodeHome, type Home } from "../../src/adapters/simulator/HomeFile.ts"

const home = (services: ReadonlyArray<object>): Home => {
  const result = decodeHome({ services }, "test")
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}
const lamp = (local: string, extra: object = {}) => ({
  id: `service:${local}@sim`,
  tags: ["light"],
  getters: [{ id: `getter:${local}@sim`, kind: "OnOff", value: { OnOff: "Off" } }],
  setters: [{ id: `setter:${local}@sim`, kind: "OnOff", drives: `getter:${local}@sim` }],
  ...extra
})

describe("home diff", () => {
  it("finds devices that left, arrived and changed, and leaves identical ones out", () => {
    const diff = diffHomes(home([lamp("a"), lamp("b"), lamp("c")]), home([lamp("b", { latency_ms: 5 }), lamp("c"), lamp("d")]))
    expect(diff.removed).toEqual(["service:a@sim"])
    expect(diff.added.map((s) => s.id)).toEqual(["service:d@sim"])
    expect(diff.changed.map((c) => c.after.id)).toEqual(["service:b@sim"])
  })

  it("sees a change deep inside a value", () => {
    const json = (v: number) => [{ id: "service:j@sim", getters: [{ id: "g", kind: { vendor: "v", adapter: "a", kind: "k", type: "Json" }, value: { Json: { a: [v] } } }] }]
    expect(diffHomes(home(json(1)), home(json(1))).changed).toEqual([])
    expect(diffHomes(home(json(1)), home(json(2))).changed).toHaveLength(1)
  })

  it("tells the gateway again only what it sees: ids, kinds, tags, properties", () => {
    const [before] = home([lamp("a")]).services
    const [slower] = home([lamp("a", { latency_ms: 50, fail: "error" })]).services
    const [retagged] = home([lamp("a", { tags: ["lamp"] })]).services
    if (before === undefined || slower === undefined || retagged === undefined) throw new Error("no service")
    expect(sameDescription(before, slower)).toBe(true)
    expect(sameDescription(before, retagged)).toBe(false)
  })

  it("describes a device with sorted initial tags, its properties, and setters accepting any rate", () => {
    const [service] = home([lamp("a", { tags: ["z", "a", "z"], properties: { name: "Lamp" } })]).services
    if (service === undefined) throw new Error("no service")
    expect(describeService(service)).toEqual({
      id: "service:a@sim",
      tags: ["a", "z"],
      properties: { name: "Lamp" },
      getters: [{ id: "getter:a@sim", kind: { _tag: "Builtin", name: "OnOff" }, tags: [], pushMs: 0 }],
      setters: [{ id: "setter:a@sim", kind: { _tag: "Builtin", name: "OnOff" }, tags: [], pushMs: 0 }]
    })
  })

  it("keeps a getter going when only its tags or watch mode change", () => {
    const getter = (extra: object) => home([{ id: "service:s@sim", getters: [{ id: "g", kind: "OnOff", value: { OnOff: "On" }, ...extra }] }]).services[0]?.getters[0]
    const base = getter({})
    const same = [getter({ tags: ["x"] }), getter({ watch: "thresholds-only" })]
    const different = [getter({ value: { OnOff: "Off" } }), getter({ cycle: { every_ms: 5, values: [{ OnOff: "Off" }] } }), getter({ kind: "Ready", value: { Unit: null } })]
    if (base === undefined) throw new Error("no getter")
    for (const g of same) expect(g !== undefined && sameGetterBehaviour(base, g)).toBe(true)
    for (const g of different) expect(g !== undefined && sameGetterBehaviour(base, g)).toBe(false)
  })

  it("frees the channels a device loses before they are claimed elsewhere", () => {
    const [before] = home([lamp("a")]).services
    const [after] = home([{ id: "service:a@sim", getters: [{ id: "getter:a@sim", kind: "OnOff" }] }]).services
    if (before === undefined || after === undefined) throw new Error("no service")
    const kept = withoutLeavingChannels(before, after)
    expect(kept.getters.map((g) => g.id)).toEqual(["getter:a@sim"])
    expect(kept.setters).toEqual([])
  })
})
