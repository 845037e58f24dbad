import * as fc from "fast-check"
import { Option } from "effect"
import { expect } from "vitest"
import { type Constraint, empty, exactly } from "../../src/domain/Constraint.ts"
import { Tag } from "../../src/domain/Identifier.ts"
import type { Mechanism } from "../../src/domain/Mechanism.ts"
import type { ChannelSelector, ServiceSelector } from "../../src/domain/Selector.ts"
import type { HomeIndex } from "../../src/gateway/HomeIndex.ts"
import { resolveTargets } from "../../src/gateway/TargetResolution.ts"
import * as A from "../../src/vocabulary/a/index.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import { translateToB } from "../../src/api/Translation.ts"
import { buildIndex, channelSelectorOn, homeWith, type RandomHome, serviceSelectorOn } from "../gateway/randomHome.ts"
import { law } from "../laws/law.ts"
import { decoded } from "./answers.ts"
import { decode, encode } from "../../src/vocabulary/common/WireIssue.ts"

/**
 * The same law as translationOverHttp, on the canonical level and with many more cases: random homes
 * (test/gateway/randomHome.ts), random canonical selectors of A's share written with A's codec, and
 * their B translation read back with B's codec select the same things, and a read or write resolves
 * to the same channels and the same per-channel errors.
 */

/** What A can say: no `service_tags`, and a mechanism given by where the selector stands. */
const inA = (mechanism: Constraint<Mechanism>) => (selector: ChannelSelector): ChannelSelector => ({
  ...selector,
  mechanism,
  serviceTags: []
})

const getSelectors = (home: RandomHome) => fc.array(channelSelectorOn(home).map(inA(exactly("getter"))), { maxLength: 3 })
const setSelectors = (home: RandomHome) => fc.array(channelSelectorOn(home).map(inA(exactly("setter"))), { maxLength: 3 })
const tagSelectors = (home: RandomHome) => fc.array(channelSelectorOn(home).map(inA(empty)), { maxLength: 3 })
const nodeSelectors = (home: RandomHome) => fc.array(
  serviceSelectorOn(home).map((s): ServiceSelector => ({
    ...s,
    getters: s.getters.map(inA(exactly("getter"))),
    setters: s.setters.map(inA(exactly("setter")))
  })),
  { maxLength: 3 }
)

const value = { OnOff: "On" }
const tags = [Tag.make("tagged")]

const channelIds = (index: HomeIndex, selectors: ReadonlyArray<ChannelSelector>) =>
  index.selectChannels(selectors).map((c) => c.id)

const serviceIds = (index: HomeIndex, selectors: ReadonlyArray<ServiceSelector>) =>
  index.selectServices(selectors).map((s) => s.id)

/** The keys of a fetch or send answer and the errors among them, before any device is called. */
const resolution = (index: HomeIndex, mechanism: Mechanism, selectors: ReadonlyArray<ChannelSelector>) => {
  const { channels, missing } = resolveTargets(index, mechanism, selectors)
  return { channels: channels.map((c) => c.id), missing: [...missing].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) }
}

const selecting = (what: string) => ({ of: `requests selecting ${what}`, floor: 0.2 })

law("A ≡ B: get_nodes and get_services select the same services", selecting("a service"), 300, (note) =>
  fc.property(homeWith(nodeSelectors), ([home, selectors]) => {
    const index = buildIndex(home)
    const body = decoded(encode(A.NodeSelectorsJson, selectors))
    const b = decoded(translateToB("get_nodes", Option.some(body)))
    expect(b.path).toBe("/api/v1/services")
    const asA = serviceIds(index, decoded(decode(A.NodeSelectorsJson, body)))
    expect(serviceIds(index, decoded(decode(B.ServiceSelectorsJson, b.body)))).toEqual(asA)
    note(asA.length > 0)
  }))

law("A ≡ B: get_input_channels and get_getter_channels, get_output_channels and get_setter_channels select the same channels", selecting("a channel"), 300, (note) =>
  fc.property(homeWith((home) => fc.tuple(getSelectors(home), setSelectors(home))), ([home, [gets, sets]]) => {
    const index = buildIndex(home)
    const getBody = decoded(encode(A.GetSelectorsJson, gets))
    const getters = decoded(translateToB("get_input_channels", Option.some(getBody)))
    expect(getters.path).toBe("/api/v1/channels/getters")
    const gettersInA = channelIds(index, decoded(decode(A.GetSelectorsJson, getBody)))
    expect(channelIds(index, decoded(decode(B.GetterSelectorsJson, getters.body)))).toEqual(gettersInA)
    const setBody = decoded(encode(A.SetSelectorsJson, sets))
    const setters = decoded(translateToB("get_output_channels", Option.some(setBody)))
    expect(setters.path).toBe("/api/v1/channels/setters")
    const settersInA = channelIds(index, decoded(decode(A.SetSelectorsJson, setBody)))
    expect(channelIds(index, decoded(decode(B.SetterSelectorsJson, setters.body)))).toEqual(settersInA)
    note(gettersInA.length + settersInA.length > 0)
  }))

law("A ≡ B: channel tag bodies select the same channels of either mechanism", selecting("a channel"), 300, (note) =>
  fc.property(homeWith(tagSelectors), ([home, selectors]) => {
    const index = buildIndex(home)
    const body = decoded(encode(A.ChannelTagBodyJson, { selectors, tags }))
    const b = decoded(translateToB("put_input_tag", Option.some(body)))
    expect([b.method, b.path]).toEqual(["POST", "/api/v1/channels/tag?vocabulary=b"])
    const inA = channelIds(index, decoded(decode(A.ChannelTagBodyJson, body)).selectors)
    expect(channelIds(index, decoded(decode(B.ChannelTagBodyJson, b.body)).selectors)).toEqual(inA)
    note(inA.length > 0)
  }))

law("A ≡ B: get_channel_value and fetch_values resolve to the same getters and the same missing ids", selecting("a getter"), 300, (note) =>
  fc.property(homeWith(getSelectors), ([home, selectors]) => {
    const index = buildIndex(home)
    const body = decoded(encode(A.GetSelectorsJson, selectors))
    const b = decoded(translateToB("get_channel_value", Option.some(body)))
    expect(b.path).toBe("/api/v1/channels/get")
    const inA = resolution(index, "getter", decoded(decode(A.GetSelectorsJson, body)))
    expect(resolution(index, "getter", decoded(decode(B.GetterSelectorsJson, b.body)))).toEqual(inA)
    note(inA.channels.length > 0)
  }))

law("A ≡ B: put_channel_value and send_values resolve to the same setters and the same missing ids", selecting("a setter"), 300, (note) =>
  fc.property(homeWith(setSelectors), ([home, selectors]) => {
    const index = buildIndex(home)
    const body = [decoded(encode(A.SetSelectorsJson, selectors)), value]
    const b = decoded(translateToB("put_channel_value", Option.some(body)))
    expect([b.method, b.path]).toEqual(["PUT", "/api/v1/channels/set"])
    const targetsB = decoded(decode(B.SendBodyJson, b.body))
    const targetsA = decoded(decode(A.PutValueBodyJson, body))
    const inA = targetsA.map((t) => resolution(index, "setter", t.selectors))
    expect(targetsB.map((t) => resolution(index, "setter", t.selectors))).toEqual(inA)
    note(inA.some((r) => r.channels.length > 0))
  }))
