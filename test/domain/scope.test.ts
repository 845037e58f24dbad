import * as fc from "fast-check"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { anyChannelMatches, anyServiceMatches, type Channel, type Service } from "../../src/domain/index.ts"
import {
  excessOver,
  grants,
  Right,
  type TokenScope,
  scopeChannelSelectors,
  scopeServiceSelectors,
  scopeWatchRegistration
} from "../../src/domain/Access.ts"
import type { ChannelSelector } from "../../src/domain/Selector.ts"
import { andChannel } from "../../src/domain/SelectorAlgebra.ts"
import { buildIndex, channelSelector, randomHome, resources, serviceSelector } from "../gateway/randomHome.ts"

/**
 * A scope ANDs every request with its selectors (src/domain/Access.ts). On random homes, scopes and
 * requests: a scoped selection of channels holds exactly what the request selects that the scope
 * reaches; one of services, at least every service a scoped caller selects (which test/gateway/scopedHome.test.ts
 * checks the gateway narrows to exactly those).
 */

const scope: fc.Arbitrary<TokenScope> = fc.record({
  channels: fc.array(channelSelector, { maxLength: 3 }),
  rights: fc.uniqueArray(fc.constantFrom(...Right.literals))
})
const requestChannels = fc.array(channelSelector, { maxLength: 3 })
const runs = { numRuns: 300 }

describe("a scope", () => {
  it("selects the channels the request selects and the scope reaches, and no other", () => {
    fc.assert(
      fc.property(randomHome, scope, requestChannels, (home, s, request) => {
        const index = buildIndex(home)
        const { channels } = resources(index, home)
        const expected = channels
          .filter((c) => anyChannelMatches(request, c.channel, c.serviceTags) && anyChannelMatches(s.channels, c.channel, c.serviceTags))
          .map((c) => c.channel.id)
          .sort()
        expect(index.selectChannels(scopeChannelSelectors(request, Option.some(s))).map((c) => c.id)).toEqual(expected)
      }),
      runs
    )
  })

  it("selects, on the whole home, every service a scoped request selects, and only services holding a channel in scope", () => {
    fc.assert(
      fc.property(randomHome, scope, fc.array(serviceSelector, { maxLength: 3 }), (home, s, request) => {
        const index = buildIndex(home)
        const inScope = (service: Service) => (channel: Channel) => anyChannelMatches(s.channels, channel, service.tags)
        // What the request selects on the home without the channels out of scope (ScopedHome answers exactly this).
        const scopedAnswer = resources(index, home).services
          .map((service) => ({ ...service, getters: service.getters.filter(inScope(service)), setters: service.setters.filter(inScope(service)) }))
          .filter((service) => service.getters.length + service.setters.length > 0 && anyServiceMatches(request, service))
          .map((service) => service.id)
        const selected = index.selectServices(scopeServiceSelectors(request, Option.some(s))).map((r) => index.toService(r))
        expect(scopedAnswer.filter((id) => !selected.some((service) => service.id === id))).toEqual([])
        for (const service of selected) expect([...service.getters, ...service.setters].some(inScope(service))).toBe(true)
      }),
      runs
    )
  })

  it("narrows a watch registration to the channels in scope", () => {
    fc.assert(
      fc.property(randomHome, scope, requestChannels, (home, s, selectors) => {
        const index = buildIndex(home)
        const registration = selectors.map((selector) => ({ selector, values: { _tag: "Always" as const }, topology: true, initialValues: false }))
        const scoped = scopeWatchRegistration(registration, Option.some(s)).map((t) => t.selector)
        expect(index.selectChannels(scoped).map((c) => c.id)).toEqual(
          index.selectChannels(scopeChannelSelectors(selectors, Option.some(s))).map((c) => c.id)
        )
      }),
      runs
    )
  })

  it("changes nothing when there is none (an unscoped token)", () => {
    fc.assert(
      fc.property(requestChannels, fc.array(serviceSelector, { maxLength: 3 }), (channels, services) => {
        expect(scopeChannelSelectors(channels, Option.none())).toBe(channels)
        expect(scopeServiceSelectors(services, Option.none())).toBe(services)
      })
    )
  })

  it("grants exactly its rights; no scope grants every right", () => {
    fc.assert(
      fc.property(scope, (s) => {
        for (const right of Right.literals) {
          expect(grants(Option.some(s), right)).toBe(s.rights.includes(right))
          expect(grants(Option.none(), right)).toBe(true)
        }
      })
    )
  })
})

/**
 * Whether one scope lies within another (`excessOver`, what a token may create): decided on the scopes
 * alone, it must hold on every home, so it is checked on random homes against the plain meaning.
 */
describe("a scope within another", () => {
  /** A scope within `outer` by construction: some of its selectors, each ANDed with more, and some of its rights. */
  const narrowed = (outer: TokenScope): fc.Arbitrary<TokenScope> =>
    fc.record({
      channels: outer.channels.length === 0
        ? fc.constant([])
        : fc.array(fc.tuple(fc.constantFrom(...outer.channels), channelSelector).map(([s, more]) => andChannel(s, more)), { maxLength: 3 }),
      rights: fc.subarray([...outer.rights])
    })

  const fields = ["id", "service", "mechanism", "kind", "tags", "serviceTags"] as const

  /** `selector` with one field no longer asked for: a constraint made `Empty`, or a tag dropped. */
  const loosened = (selector: ChannelSelector, field: (typeof fields)[number]): ChannelSelector =>
    field === "tags" || field === "serviceTags" ? { ...selector, [field]: selector[field].slice(1) } : { ...selector, [field]: { _tag: "Empty" } }

  /** Scopes near `outer`: each of its selectors with one field loosened, each alone; often wider than `outer`. */
  const nearby = (outer: TokenScope): ReadonlyArray<TokenScope> =>
    outer.channels.flatMap((s) => fields.map((field) => ({ channels: [loosened(s, field)], rights: outer.rights })))

  it("reaches only channels the other reaches, and has only its rights, on any home", () => {
    // Besides a random scope and one narrowed from the outer one, every scope near it: most lie just outside it.
    const cases = scope.chain((outer) =>
      fc.tuple(fc.constant(outer), fc.tuple(scope, narrowed(outer)).map((some) => [...some, ...nearby(outer)]))
    )
    fc.assert(
      fc.property(randomHome, cases, (home, [outer, inners]) => {
        const { channels } = resources(buildIndex(home), home)
        for (const inner of inners) {
          if (Option.isSome(excessOver(Option.some(inner), Option.some(outer)))) continue
          const beyond = channels.filter((c) =>
            anyChannelMatches(inner.channels, c.channel, c.serviceTags) && !anyChannelMatches(outer.channels, c.channel, c.serviceTags)
          )
          expect({ inner, beyond }).toEqual({ inner, beyond: [] })
          expect(inner.rights.filter((right) => !outer.rights.includes(right))).toEqual([])
        }
      }),
      runs
    )
  })

  it("holds for a scope made narrower: fewer selectors, each with more constraints, and fewer rights", () => {
    fc.assert(fc.property(scope.chain((outer) => fc.tuple(fc.constant(outer), narrowed(outer))), ([outer, inner]) => {
      expect(excessOver(Option.some(inner), Option.some(outer))).toEqual(Option.none())
    }), runs)
  })

  it("does not hold for no scope within a scope, nor for a right the other lacks; anything lies within no scope", () => {
    fc.assert(
      fc.property(scope, scope, (inner, outer) => {
        expect(excessOver(Option.none(), Option.some(outer))).toEqual(Option.some({ _tag: "Unscoped" }))
        expect(excessOver(Option.some(inner), Option.none())).toEqual(Option.none())
        const missing = Right.literals.find((right) => !outer.rights.includes(right))
        if (missing === undefined) return
        const widened = { ...inner, rights: [...inner.rights, missing] }
        expect(Option.map(excessOver(Option.some(widened), Option.some(outer)), (excess) => excess._tag)).toEqual(Option.some("Right"))
      }),
      runs
    )
  })
})
