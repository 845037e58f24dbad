import * as fc from "fast-check"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { anyChannelMatches, anyService } from "../../src/domain/index.ts"
import { Right, type TokenScope } from "../../src/domain/Access.ts"
import type { HomeView } from "../../src/gateway/HomeIndex.ts"
import { homeFor } from "../../src/gateway/ScopedHome.ts"
import { resolveTargets } from "../../src/gateway/TargetResolution.ts"
import { buildIndex, channelIds, channelSelector, type RandomHome, randomHome, resources, serviceIds, serviceSelector } from "./randomHome.ts"

/**
 * A scoped caller's home (src/gateway/ScopedHome.ts) on random homes, scopes and selectors: every
 * question it answers is answered as on the home without the channels the scope does not reach (nor
 * the services left with none), the plain meaning of "absent, exactly as if it did not exist".
 */

/** A selector constraining at most one field: a scope of them often reaches part of a service. */
const oneField = channelSelector.filter((selector) =>
  [selector.id, selector.service, selector.mechanism, selector.kind].filter((c) => c._tag !== "Empty").length +
      (selector.tags.length > 0 ? 1 : 0) + (selector.serviceTags.length > 0 ? 1 : 0) <= 1
)

const scope: fc.Arbitrary<TokenScope> = fc.record({
  channels: fc.oneof(fc.array(channelSelector, { minLength: 1, maxLength: 3 }), fc.array(oneField, { minLength: 1, maxLength: 2 })),
  rights: fc.uniqueArray(fc.constantFrom(...Right.literals))
})

/** Service selectors, and ones requiring a getter or a setter by one field: the probes of what lies beside the scope. */
const serviceSelectors = fc.array(
  fc.oneof(
    serviceSelector,
    oneField.map((requirement) => ({ ...anyService, getters: [requirement] })),
    oneField.map((requirement) => ({ ...anyService, setters: [requirement] }))
  ),
  { maxLength: 3 }
)
const runs = { numRuns: 300 }

/** The home without what `s` does not reach, which channels are reached decided by the plain meaning of selectors. */
const withoutUnreached = (home: RandomHome, s: TokenScope): RandomHome => {
  const reached = new Set(
    resources(buildIndex(home), home).channels.filter((c) => anyChannelMatches(s.channels, c.channel, c.serviceTags)).map((c) => c.channel.id)
  )
  return {
    services: home.services
      .map((service) => ({ ...service, channels: service.channels.filter((c) => reached.has(c.id)) }))
      .filter((service) => service.channels.length > 0)
  }
}

/** The scoped view of `home`, and the index of the home without what `s` does not reach. */
const bothHomes = (home: RandomHome, s: TokenScope): { readonly scoped: HomeView; readonly reduced: HomeView } => ({
  scoped: homeFor(buildIndex(home), Option.some(s)),
  reduced: buildIndex(withoutUnreached(home, s))
})

const servicesIn = (home: HomeView, selectors: Parameters<HomeView["selectServices"]>[0]) =>
  home.selectServices(selectors).map((service) => home.toService(service))

/** How to look up one kind of thing (channels, services) by id, show it, and match it with a selector. */
interface Things<Id, R> {
  readonly ids: ReadonlyArray<Id>
  readonly get: (view: HomeView, id: Id) => R | undefined
  readonly show: (view: HomeView, record: R) => unknown
  readonly matches: (view: HomeView, record: R) => boolean
}

/** Each id is held, shown and matched in the scoped view as in the reduced home; a record of the whole home too. */
const expectSameThings = <Id, R>(
  homes: { readonly whole: HomeView; readonly scoped: HomeView; readonly reduced: HomeView },
  things: Things<Id, R>
) => {
  const { whole, scoped, reduced } = homes
  for (const id of things.ids) {
    const record = things.get(whole, id)
    const kept = things.get(reduced, id)
    const held = things.get(scoped, id)
    expect({ id, held: held === undefined ? undefined : things.show(scoped, held) })
      .toEqual({ id, held: kept === undefined ? undefined : things.show(reduced, kept) })
    if (record !== undefined) {
      expect({ id, matches: things.matches(scoped, record) }).toEqual({ id, matches: kept !== undefined && things.matches(reduced, kept) })
    }
  }
}

describe("a scoped caller's home", () => {
  it("selects services, their channel requirements met only in scope, as the home without the rest does", () => {
    fc.assert(
      fc.property(randomHome, scope, serviceSelectors, (home, s, selectors) => {
        const { scoped, reduced } = bothHomes(home, s)
        expect(servicesIn(scoped, selectors)).toEqual(servicesIn(reduced, selectors))
      }),
      // A service the scope reaches in part, and a requirement met only beside the scope, meet seldom.
      { numRuns: 1500 }
    )
  })

  it("selects channels as the home without the rest does", () => {
    fc.assert(
      fc.property(randomHome, scope, fc.array(channelSelector, { maxLength: 3 }), (home, s, selectors) => {
        const { scoped, reduced } = bothHomes(home, s)
        const channels = (view: HomeView) => view.selectChannels(selectors).map((c) => view.toChannel(c))
        expect(channels(scoped)).toEqual(channels(reduced))
      }),
      runs
    )
  })

  it("holds the ids, and matches each selector, as the home without the rest does", () => {
    fc.assert(
      fc.property(randomHome, scope, channelSelector, serviceSelector, (home, s, channelSelector, serviceSelector) => {
        const homes = { whole: buildIndex(home), ...bothHomes(home, s) }
        expectSameThings(homes, {
          ids: channelIds,
          get: (view, id) => view.channel(id),
          show: (view, record) => view.toChannel(record),
          matches: (view, record) => view.channelMatches(channelSelector, record)
        })
        expectSameThings(homes, {
          ids: serviceIds,
          get: (view, id) => view.service(id),
          show: (view, record) => view.toService(record),
          matches: (view, record) => view.serviceMatches(serviceSelector, record)
        })
      }),
      runs
    )
  })

  it("resolves reads and writes, with their errors for what is absent, as the home without the rest does", () => {
    fc.assert(
      fc.property(randomHome, scope, fc.array(channelSelector, { maxLength: 3 }), fc.constantFrom("getter", "setter"), (home, s, selectors, mechanism) => {
        const { scoped, reduced } = bothHomes(home, s)
        const resolved = (view: HomeView) => {
          const { channels, missing } = resolveTargets(view, mechanism, selectors)
          return { channels: channels.map((c) => c.id), missing: [...missing] }
        }
        expect(resolved(scoped)).toEqual(resolved(reduced))
      }),
      runs
    )
  })
})
