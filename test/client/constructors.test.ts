import { readFileSync } from "node:fs"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest"
import {
  celsius,
  type ChannelOutcome,
  channelId,
  channelSelector,
  exactly,
  type FetchResultsView,
  kind,
  type Kind,
  onOff,
  serviceId,
  serviceSelector,
  tag,
  type Value
} from "../../src/client/index.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { clientOf } from "./clients.ts"

/**
 * An app writes its requests from plain strings and names: `tag("light")`, `channelId(…)`, `kind("OnOff")`
 * (which, hoisted into a constant, keeps its literal type), `onOff("On")`, `celsius(21.5)`; and the
 * client's answers are typed in the model's terms.
 */

const home = JSON.parse(readFileSync(new URL("../../docs/examples/home.json", import.meta.url), "utf8"))
let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(home)
})
afterAll(() => gateway.close())

// Hoisted, as an app's constants are: no `as const`, no `make`.
const hallway = tag("hallway")
const onOffKind = exactly(kind("OnOff"))
const thermostat = channelSelector({ id: exactly(channelId("setter:thermostat-target@sim")), mechanism: exactly("setter") })

describe.each(["a", "b"] as const)("the model's constructors, in vocabulary %s", (vocabulary) => {
  it("select by tag and kind, and write values, as the gateway reads them", async () => {
    const client = clientOf(gateway, vocabulary)
    const hall = serviceSelector({ id: exactly(serviceId("service:hall-light@sim")) })
    expect(await client.tagServices([hall], [hallway])).toBe(1)
    expect((await client.services([serviceSelector({ tags: [hallway] })])).map((s) => s.id)).toEqual(["service:hall-light@sim"])
    const switches = await client.getters([channelSelector({ kind: onOffKind, mechanism: exactly("getter") })])
    expect(switches.map((g) => g.id)).toEqual(["getter:hall-light-on@sim", "getter:kitchen-light-on@sim"])
    await client.send([{ selectors: [thermostat], value: celsius(21.5) }])
    expect(await gateway.lastSent("setter:thermostat-target@sim")).toEqual(Option.some(celsius(21.5)))
    await client.send([{ selectors: [channelSelector({ id: exactly(channelId("setter:hall-light-on@sim")), mechanism: exactly("setter") })], value: onOff("On") }])
    expect(await gateway.lastSent("setter:hall-light-on@sim")).toEqual(Option.some({ _tag: "OnOff", state: "On" }))
    await client.close()
  })
})

describe("the constructors' types", () => {
  it("are the model's, as narrow as the value", () => {
    expectTypeOf(kind("OnOff")).toExtend<Kind>()
    expectTypeOf(kind("OnOff").name).toEqualTypeOf<"OnOff">()
    expectTypeOf(onOff("Off")).toExtend<Value>()
    expectTypeOf<FetchResultsView[number]>().toEqualTypeOf<ChannelOutcome<Option.Option<Value>>>()
    expect(kind("Thermostat")).toEqual({ _tag: "Builtin", name: "Thermostat" })
    expect(celsius(21.5)).toEqual({ _tag: "Temperature", unit: "C", degrees: 21.5 })
  })
})
