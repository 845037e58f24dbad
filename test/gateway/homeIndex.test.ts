import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  andChannel,
  andService,
  anyChannel,
  anyChannelMatches,
  anyService,
  anyServiceMatches,
  channelMatches,
  serviceMatches
} from "../../src/domain/index.ts"
import { buildIndex, channelSelector, randomHome, resources, serviceSelector } from "./randomHome.ts"

const ids = (things: ReadonlyArray<{ readonly id: string }>) => things.map((t) => t.id)

describe("selector engine", () => {
  it("answers channel selectors from its indexes exactly as a plain scan does", () => {
    fc.assert(
      fc.property(randomHome, fc.array(channelSelector, { maxLength: 3 }), (home, selectors) => {
        const index = buildIndex(home)
        const { channels } = resources(index, home)
        const scanned = channels.filter((c) => anyChannelMatches(selectors, c.channel, c.serviceTags)).map((c) => c.channel.id).sort()
        expect(ids(index.selectChannels(selectors))).toEqual(scanned)
      }),
      { numRuns: 300 }
    )
  })

  it("answers service selectors from its indexes exactly as a plain scan does", () => {
    fc.assert(
      fc.property(randomHome, fc.array(serviceSelector, { maxLength: 3 }), (home, selectors) => {
        const index = buildIndex(home)
        const { services } = resources(index, home)
        const scanned = services.filter((s) => anyServiceMatches(selectors, s)).map((s) => s.id).sort()
        expect(ids(index.selectServices(selectors))).toEqual(scanned)
      }),
      { numRuns: 300 }
    )
  })

  it("matches the union of each selector's matches for an array (OR)", () => {
    fc.assert(
      fc.property(randomHome, fc.array(channelSelector, { maxLength: 4 }), (home, selectors) => {
        const index = buildIndex(home)
        const union = new Set(selectors.flatMap((s) => ids(index.selectChannels([s]))))
        expect(ids(index.selectChannels(selectors))).toEqual([...union].sort())
      })
    )
  })

  it("matches the intersection of its fields within one selector (AND)", () => {
    fc.assert(
      fc.property(randomHome, channelSelector, (home, selector) => {
        const index = buildIndex(home)
        const single = [
          { ...anyChannel, id: selector.id },
          { ...anyChannel, service: selector.service },
          { ...anyChannel, mechanism: selector.mechanism },
          { ...anyChannel, kind: selector.kind },
          { ...anyChannel, tags: selector.tags },
          { ...anyChannel, serviceTags: selector.serviceTags }
        ].map((s) => new Set(ids(index.selectChannels([s]))))
        const all = ids(index.selectChannels([anyChannel]))
        const intersection = all.filter((id) => single.every((set) => set.has(id)))
        expect(ids(index.selectChannels([selector]))).toEqual(intersection)
      })
    )
  })

  it("matches nothing with [] and everything with {}", () => {
    fc.assert(
      fc.property(randomHome, (home) => {
        const index = buildIndex(home)
        const { services, channels } = resources(index, home)
        expect(index.selectChannels([])).toEqual([])
        expect(index.selectServices([])).toEqual([])
        expect(ids(index.selectChannels([anyChannel]))).toEqual(channels.map((c) => c.channel.id).sort())
        expect(ids(index.selectServices([anyService]))).toEqual(services.map((s) => s.id).sort())
      })
    )
  })

  it("reads tags as all-of: a thing matches only if it carries every listed tag", () => {
    fc.assert(
      fc.property(randomHome, channelSelector, (home, selector) => {
        const index = buildIndex(home)
        for (const channel of index.selectChannels([{ ...anyChannel, tags: selector.tags }])) {
          const carried = index.tagsOfChannel(channel.id)
          expect(selector.tags.every((t) => carried.has(t))).toBe(true)
        }
        const { channels } = resources(index, home)
        const carriers = channels.filter((c) => selector.tags.every((t) => c.channel.tags.includes(t))).length
        expect(index.selectChannels([{ ...anyChannel, tags: selector.tags }]).length).toBe(carriers)
      })
    )
  })
})

describe("selector AND algebra", () => {
  it("matches(a ∧ b, x) = matches(a, x) && matches(b, x) for channels", () => {
    fc.assert(
      fc.property(randomHome, channelSelector, channelSelector, (home, a, b) => {
        const { channels } = resources(buildIndex(home), home)
        for (const { channel, serviceTags } of channels) {
          expect(channelMatches(andChannel(a, b), channel, serviceTags)).toBe(
            channelMatches(a, channel, serviceTags) && channelMatches(b, channel, serviceTags)
          )
        }
      }),
      { numRuns: 300 }
    )
  })

  it("matches(a ∧ b, x) = matches(a, x) && matches(b, x) for services", () => {
    fc.assert(
      fc.property(randomHome, serviceSelector, serviceSelector, (home, a, b) => {
        const { services } = resources(buildIndex(home), home)
        for (const service of services) {
          expect(serviceMatches(andService(a, b), service)).toBe(serviceMatches(a, service) && serviceMatches(b, service))
        }
      }),
      { numRuns: 300 }
    )
  })

  it("is commutative and has {} as its identity", () => {
    fc.assert(
      fc.property(channelSelector, channelSelector, (a, b) => {
        expect(andChannel(a, b)).toEqual(andChannel(b, a))
        expect(andChannel(a, anyChannel)).toEqual(andChannel(anyChannel, a))
      })
    )
  })
})

describe("home index", () => {
  it("answers exactly as a plain scan after services leave and come back", () => {
    fc.assert(
      fc.property(randomHome, fc.array(fc.boolean()), channelSelector, (home, leaves, selector) => {
        const index = buildIndex(home)
        index.selectChannels([anyChannel]) // the first query orders the whole home
        const left = home.services.filter((_, i) => leaves[i] === true)
        const kept = { services: home.services.filter((_, i) => leaves[i] !== true) }
        const records = left.flatMap((s) => {
          const record = index.service(s.id)
          return record === undefined ? [] : [{ record, channels: index.removeService(s.id) }]
        })
        const scan = (h: typeof home) =>
          resources(index, h).channels.filter((c) => anyChannelMatches([selector], c.channel, c.serviceTags)).map((c) => c.channel.id).sort()
        expect(ids(index.selectChannels([selector]))).toEqual(scan(kept))
        for (const { record, channels } of records) index.putService(record, channels)
        expect(ids(index.selectChannels([selector]))).toEqual(scan(home))
      }),
      { numRuns: 200 }
    )
  })

  it("keeps the tags of a disconnected service and gives them back when it reconnects", () => {
    fc.assert(
      fc.property(randomHome, (home) => {
        const index = buildIndex(home)
        for (const service of home.services) {
          const record = index.service(service.id)
          if (record === undefined) continue
          const before = index.toService(record)
          const channels = index.removeService(service.id)
          expect(index.selectServices([{ ...anyService, tags: before.tags }]).map((s) => s.id)).not.toContain(service.id)
          index.putService(record, channels)
          expect(index.toService(record)).toEqual(before)
        }
      })
    )
  })
})
