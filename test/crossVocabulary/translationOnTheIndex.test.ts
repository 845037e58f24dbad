import * as fc from "fast-check"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { type Constraint, empty, exactly } from "../../src/domain/Constraint.ts"
import { Tag } from "../../src/domain/Identifier.ts"
import type { Mechanism } from "../../src/domain/Mechanism.ts"
import type { ChannelSelector, ServiceSelector } from "../../src/domain/Selector.ts"
import type { HomeIndex } from "../../src/gateway/HomeIndex.ts"
import { resolveTargets } from "../../src/gateway/TargetResolution.ts"
import * as A from "../../src/vocabulary/a/index.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import { translateToB } from "../../src/vocabulary/Translation.ts"
import { buildIndex, channelSelector, randomHome, serviceSelector } from "../gateway/randomHome.ts"
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

const getSelectors = fc.array(channelSelector.map(inA(exactly("getter"))), { maxLength: 3 })
const setSelectors = fc.array(channelSelector.map(inA(exactly("setter"))), { maxLength: 3 })
const tagSelectors = fc.array(channelSelector.map(inA(empty)), { maxLength: 3 })
const nodeSelectors = fc.array(
  serviceSelector.map((s): ServiceSelector => ({
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

const runs = { numRuns: 300 }

describe("an A request and its B translation, on random homes", () => {
  it("get_nodes and get_services select the same services", () => {
    fc.assert(
      fc.property(randomHome, nodeSelectors, (home, selectors) => {
        const index = buildIndex(home)
        const body = decoded(encode(A.NodeSelectorsJson, selectors))
        const b = decoded(translateToB("get_nodes", Option.some(body)))
        expect(b.path).toBe("/api/v1/services")
        const asA = decoded(decode(A.NodeSelectorsJson, body))
        expect(serviceIds(index, decoded(decode(B.ServiceSelectorsJson, b.body)))).toEqual(serviceIds(index, asA))
      }),
      runs
    )
  })

  it("get_input_channels and get_getter_channels, get_output_channels and get_setter_channels select the same channels", () => {
    fc.assert(
      fc.property(randomHome, getSelectors, setSelectors, (home, gets, sets) => {
        const index = buildIndex(home)
        const getBody = decoded(encode(A.GetSelectorsJson, gets))
        const getters = decoded(translateToB("get_input_channels", Option.some(getBody)))
        expect(getters.path).toBe("/api/v1/channels/getters")
        expect(channelIds(index, decoded(decode(B.GetterSelectorsJson, getters.body))))
          .toEqual(channelIds(index, decoded(decode(A.GetSelectorsJson, getBody))))
        const setBody = decoded(encode(A.SetSelectorsJson, sets))
        const setters = decoded(translateToB("get_output_channels", Option.some(setBody)))
        expect(setters.path).toBe("/api/v1/channels/setters")
        expect(channelIds(index, decoded(decode(B.SetterSelectorsJson, setters.body))))
          .toEqual(channelIds(index, decoded(decode(A.SetSelectorsJson, setBody))))
      }),
      runs
    )
  })

  it("channel tag bodies select the same channels of either mechanism", () => {
    fc.assert(
      fc.property(randomHome, tagSelectors, (home, selectors) => {
        const index = buildIndex(home)
        const body = decoded(encode(A.ChannelTagBodyJson, { selectors, tags }))
        const b = decoded(translateToB("put_input_tag", Option.some(body)))
        expect([b.method, b.path]).toEqual(["POST", "/api/v1/channels/tag"])
        expect(channelIds(index, decoded(decode(B.ChannelTagBodyJson, b.body)).selectors))
          .toEqual(channelIds(index, decoded(decode(A.ChannelTagBodyJson, body)).selectors))
      }),
      runs
    )
  })

  it("get_channel_value and fetch_values resolve to the same getters and the same missing ids", () => {
    fc.assert(
      fc.property(randomHome, getSelectors, (home, selectors) => {
        const index = buildIndex(home)
        const body = decoded(encode(A.GetSelectorsJson, selectors))
        const b = decoded(translateToB("get_channel_value", Option.some(body)))
        expect(b.path).toBe("/api/v1/channels/get")
        expect(resolution(index, "getter", decoded(decode(B.GetterSelectorsJson, b.body))))
          .toEqual(resolution(index, "getter", decoded(decode(A.GetSelectorsJson, body))))
      }),
      runs
    )
  })

  it("put_channel_value and send_values resolve to the same setters and the same missing ids", () => {
    fc.assert(
      fc.property(randomHome, setSelectors, (home, selectors) => {
        const index = buildIndex(home)
        const body = [decoded(encode(A.SetSelectorsJson, selectors)), value]
        const b = decoded(translateToB("put_channel_value", Option.some(body)))
        expect([b.method, b.path]).toEqual(["PUT", "/api/v1/channels/set"])
        const targetsB = decoded(decode(B.SendBodyJson, b.body))
        const targetsA = decoded(decode(A.PutValueBodyJson, body))
        expect(targetsB.map((t) => resolution(index, "setter", t.selectors)))
          .toEqual(targetsA.map((t) => resolution(index, "setter", t.selectors)))
      }),
      runs
    )
  })
})
