import * as fc from "fast-check"
import { Option } from "effect"
import { expect } from "vitest"
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
import {
  buildIndex,
  channelSelector,
  channelSelectorOn,
  homeWith,
  type RandomHome,
  resources,
  serviceSelector,
  serviceSelectorOn
} from "../gateway/randomHome.ts"
import { law } from "../laws/law.ts"

/**
 * A scope ANDs every request with its selectors (src/domain/Access.ts). On random homes, scopes and
 * requests: a scoped selection of channels holds exactly what the request selects that the scope
 * reaches; one of services, at least every service a scoped caller selects (which test/gateway/scopedHome.test.ts
 * checks the gateway narrows to exactly those).
 */

const rights = fc.uniqueArray(fc.constantFrom(...Right.literals))
const scope: fc.Arbitrary<TokenScope> = fc.record({ channels: fc.array(channelSelector, { maxLength: 3 }), rights })
const requestChannels = fc.array(channelSelector, { maxLength: 3 })

/** A home, a scope and a request drawn for it (so that both often reach something). */
const scopedRequest = <R>(request: (home: RandomHome) => fc.Arbitrary<R>) =>
  homeWith((home) =>
    fc.record({
      scope: fc.record({ channels: fc.array(channelSelectorOn(home), { minLength: 1, maxLength: 3 }), rights }),
      request: request(home)
    })
  )
const channelsOn = (home: RandomHome) => fc.array(channelSelectorOn(home), { maxLength: 3 })

law("scope: the channels selected are those the request selects and the scope reaches", { of: "scoped selections holding a channel", floor: 0.08 }, 300, (note) =>
  fc.property(scopedRequest(channelsOn), ([home, { request, scope: s }]) => {
    const index = buildIndex(home)
    const { channels } = resources(index, home)
    const expected = channels
      .filter((c) => anyChannelMatches(request, c.channel, c.serviceTags) && anyChannelMatches(s.channels, c.channel, c.serviceTags))
      .map((c) => c.channel.id)
      .sort()
    expect(index.selectChannels(scopeChannelSelectors(request, Option.some(s))).map((c) => c.id)).toEqual(expected)
    note(expected.length > 0)
  }))

law("scope: the services selected hold those a scoped caller selects, each with a channel in scope", { of: "scoped selections holding a service", floor: 0.08 }, 300, (note) =>
  fc.property(scopedRequest((home) => fc.array(serviceSelectorOn(home), { maxLength: 3 })), ([home, { request, scope: s }]) => {
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
    note(scopedAnswer.length > 0)
  }))

law("scope: a watch registration narrows to the channels in scope", { of: "registrations watching a channel in scope", floor: 0.08 }, 300, (note) =>
  fc.property(scopedRequest(channelsOn), ([home, { request: selectors, scope: s }]) => {
    const index = buildIndex(home)
    const registration = selectors.map((selector) => ({ selector, values: { _tag: "Always" as const }, topology: true, initialValues: false }))
    const scoped = scopeWatchRegistration(registration, Option.some(s)).map((t) => t.selector)
    const watched = index.selectChannels(scoped).map((c) => c.id)
    expect(watched).toEqual(index.selectChannels(scopeChannelSelectors(selectors, Option.some(s))).map((c) => c.id))
    note(watched.length > 0)
  }))

law("scope: no scope changes nothing", { of: "requests with a selector", floor: 0.5 }, 100, (note) =>
  fc.property(requestChannels, fc.array(serviceSelector, { maxLength: 3 }), (channels, services) => {
    expect(scopeChannelSelectors(channels, Option.none())).toBe(channels)
    expect(scopeServiceSelectors(services, Option.none())).toBe(services)
    note(channels.length + services.length > 0)
  }))

law("scope: grants exactly its rights; no scope grants every right", { of: "scopes granting some rights, not all", floor: 0.15 }, 100, (note) =>
  fc.property(scope, (s) => {
    for (const right of Right.literals) {
      expect(grants(Option.some(s), right)).toBe(s.rights.includes(right))
      expect(grants(Option.none(), right)).toBe(true)
    }
    note(s.rights.length > 0 && s.rights.length < Right.literals.length)
  }))

/**
 * Whether one scope lies within another (`excessOver`, what a token may create: docs/auth.md): decided on
 * the scopes alone, it must hold on every home, so it is checked on random homes against the plain meaning.
 */

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

law("scope: one judged within another reaches only channels the other reaches, and has only its rights", { of: "outer scopes with an inner one judged within that reaches a channel", floor: 0.25 }, 100, (note) =>
  fc.property(
    homeWith((home) =>
      fc.record({ channels: fc.array(channelSelectorOn(home), { minLength: 1, maxLength: 3 }), rights }).chain((outer) =>
        fc.tuple(fc.constant(outer), fc.tuple(scope, narrowed(outer)).map((some) => [...some, ...nearby(outer)]))
      )
    ),
    ([home, [outer, inners]]) => {
      const { channels } = resources(buildIndex(home), home)
      let reaching = false
      for (const inner of inners) {
        if (Option.isSome(excessOver(Option.some(inner), Option.some(outer)))) continue
        const reached = channels.filter((c) => anyChannelMatches(inner.channels, c.channel, c.serviceTags))
        const beyond = reached.filter((c) => !anyChannelMatches(outer.channels, c.channel, c.serviceTags))
        expect({ inner, beyond }).toEqual({ inner, beyond: [] })
        expect(inner.rights.filter((right) => !outer.rights.includes(right))).toEqual([])
        reaching ||= reached.length > 0
      }
      note(reaching)
    }
  ))

law("scope: a scope made narrower (fewer selectors, each with more constraints, fewer rights) is within", { of: "narrowed scopes with a selector", floor: 0.3 }, 100, (note) =>
  fc.property(scope.chain((outer) => fc.tuple(fc.constant(outer), narrowed(outer))), ([outer, inner]) => {
    expect(excessOver(Option.some(inner), Option.some(outer))).toEqual(Option.none())
    note(inner.channels.length > 0)
  }))

law("scope: no scope is within no scope but never within a scope, nor is a right the other lacks", { of: "outer scopes lacking a right", floor: 0.3 }, 100, (note) =>
  fc.property(scope, scope, (inner, outer) => {
    expect(excessOver(Option.none(), Option.some(outer))).toEqual(Option.some({ _tag: "Unscoped" }))
    expect(excessOver(Option.some(inner), Option.none())).toEqual(Option.none())
    const missing = Right.literals.find((right) => !outer.rights.includes(right))
    note(missing !== undefined)
    if (missing === undefined) return
    const widened = { ...inner, rights: [...inner.rights, missing] }
    expect(Option.map(excessOver(Option.some(widened), Option.some(outer)), (excess) => excess._tag)).toEqual(Option.some("Right"))
  }))
