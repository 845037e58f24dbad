import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { isDeepStrictEqual } from "node:util"
import { expect } from "vitest"
import {
  andChannel,
  andService,
  anyChannel,
  anyService,
  type ChannelSelector,
  channelMatches,
  conflict,
  Constraint,
  type Constraint as ConstraintOf,
  forMechanism,
  selectsNothing,
  sameConstraint,
  same,
  serviceMatches
} from "../../src/domain/index.ts"
import {
  buildIndex,
  channelSelector,
  channelSelectorOn,
  homeWith,
  randomHome,
  type RandomHome,
  resources,
  serviceSelector,
  serviceSelectorOn
} from "../gateway/randomHome.ts"
import { law } from "../laws/law.ts"

/**
 * The selector laws (docs/laws.md): OR across an array, AND within a selector, tags as all-of, `[]` and
 * `{}`, and the algebra of `∧`. On random homes (test/gateway/randomHome.ts), whose small pools of ids,
 * tags and kinds make selectors hit, miss and overlap.
 */

const ids = (things: ReadonlyArray<{ readonly id: string }>) => things.map((t) => t.id)

const channelFields = ["id", "service", "mechanism", "kind"] as const

/** Whether two channel selectors match the same channels of a home. */
const sameChannels = (home: RandomHome, a: ChannelSelector, b: ChannelSelector) => {
  const { channels } = resources(buildIndex(home), home)
  return channels.every(({ channel, serviceTags }) => channelMatches(a, channel, serviceTags) === channelMatches(b, channel, serviceTags))
}

const matchingSome = (of: string, floor: number) => ({ of: `${of} matching at least one channel`, floor })

law("OR: an array matches the union of what its selectors match", matchingSome("arrays", 0.3), 100, (note) =>
  fc.property(homeWith((h) => fc.array(channelSelectorOn(h), { maxLength: 4 })), ([home, selectors]) => {
    const index = buildIndex(home)
    const union = new Set(selectors.flatMap((s) => ids(index.selectChannels([s]))))
    expect(ids(index.selectChannels(selectors))).toEqual([...union].sort())
    note(union.size > 0)
  }))

law("AND: a selector matches the intersection of what its fields match", matchingSome("selectors", 0.25), 100, (note) =>
  fc.property(homeWith(channelSelectorOn), ([home, selector]) => {
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
    note(intersection.length > 0)
  }))

law("tags all-of: a thing matches only if it carries every listed tag", { of: "tag lists some channel carries, some not", floor: 0.15 }, 100, (note) =>
  fc.property(homeWith(channelSelectorOn), ([home, selector]) => {
    const index = buildIndex(home)
    for (const channel of index.selectChannels([{ ...anyChannel, tags: selector.tags }])) {
      const carried = index.tagsOfChannel(channel.id)
      expect(selector.tags.every((t) => carried.has(t))).toBe(true)
    }
    const { channels } = resources(index, home)
    const carriers = channels.filter((c) => selector.tags.every((t) => c.channel.tags.includes(t))).length
    expect(index.selectChannels([{ ...anyChannel, tags: selector.tags }]).length).toBe(carriers)
    note(carriers > 0 && carriers < channels.length)
  }))

law("[] matches nothing and {} matches everything", { of: "homes with at least one channel", floor: 0.6 }, 100, (note) =>
  fc.property(randomHome, (home) => {
    const index = buildIndex(home)
    const { services, channels } = resources(index, home)
    expect(index.selectChannels([])).toEqual([])
    expect(index.selectServices([])).toEqual([])
    expect(ids(index.selectChannels([anyChannel]))).toEqual(channels.map((c) => c.channel.id).sort())
    expect(ids(index.selectServices([anyService]))).toEqual(services.map((s) => s.id).sort())
    note(channels.length > 0)
  }))

law("a ∧ b matches what both a and b match (channels)", { of: "pairs where a or b matches a channel", floor: 0.4 }, 300, (note) =>
  fc.property(homeWith((h) => fc.tuple(channelSelectorOn(h), channelSelectorOn(h))), ([home, [a, b]]) => {
    const { channels } = resources(buildIndex(home), home)
    let some = false
    for (const { channel, serviceTags } of channels) {
      const both = channelMatches(a, channel, serviceTags) && channelMatches(b, channel, serviceTags)
      expect(channelMatches(andChannel(a, b), channel, serviceTags)).toBe(both)
      some ||= channelMatches(a, channel, serviceTags) || channelMatches(b, channel, serviceTags)
    }
    note(some)
  }))

law("a ∧ b matches what both a and b match (services)", { of: "pairs where a or b matches a service", floor: 0.3 }, 300, (note) =>
  fc.property(homeWith((h) => fc.tuple(serviceSelectorOn(h), serviceSelectorOn(h))), ([home, [a, b]]) => {
    const { services } = resources(buildIndex(home), home)
    let some = false
    for (const service of services) {
      expect(serviceMatches(andService(a, b), service)).toBe(serviceMatches(a, service) && serviceMatches(b, service))
      some ||= serviceMatches(a, service) || serviceMatches(b, service)
    }
    note(some)
  }))

law("∧ is commutative", { of: "pairs whose AND has no Conflict", floor: 0.3 }, 100, (note) =>
  fc.property(homeWith((h) => fc.tuple(channelSelectorOn(h), channelSelectorOn(h), serviceSelectorOn(h), serviceSelectorOn(h))), ([home, [a, b, s, t]]) => {
    expect(andChannel(a, b)).toEqual(andChannel(b, a))
    const { services } = resources(buildIndex(home), home)
    for (const service of services) expect(serviceMatches(andService(s, t), service)).toBe(serviceMatches(andService(t, s), service))
    note(!selectsNothing(andChannel(a, b)))
  }))

law("∧ is associative", { of: "triples whose AND has no Conflict", floor: 0.1 }, 100, (note) =>
  fc.property(
    fc.tuple(channelSelector, channelSelector, channelSelector),
    fc.tuple(serviceSelector, serviceSelector, serviceSelector),
    ([a, b, c], [s, t, u]) => {
      expect(andChannel(andChannel(a, b), c)).toEqual(andChannel(a, andChannel(b, c)))
      expect(andService(andService(s, t), u)).toEqual(andService(s, andService(t, u)))
      note(!selectsNothing(andChannel(andChannel(a, b), c)))
    }
  ))

law("{} is the identity of ∧", matchingSome("selectors", 0.25), 100, (note) =>
  fc.property(homeWith((h) => fc.tuple(channelSelectorOn(h), serviceSelectorOn(h))), ([home, [a, s]]) => {
    expect(andChannel(a, anyChannel)).toEqual(andChannel(anyChannel, a))
    expect(sameChannels(home, andChannel(a, anyChannel), a)).toBe(true)
    const index = buildIndex(home)
    for (const service of resources(index, home).services) {
      expect(serviceMatches(andService(s, anyService), service)).toBe(serviceMatches(s, service))
      expect(serviceMatches(andService(anyService, s), service)).toBe(serviceMatches(s, service))
    }
    note(index.selectChannels([a]).length > 0)
  }))

/** A selector with one field, or more, a Conflict. */
const conflicting: fc.Arbitrary<ChannelSelector> = fc
  .tuple(channelSelector, fc.subarray([...channelFields], { minLength: 1 }))
  .map(([selector, fields]) => ({ ...selector, ...Object.fromEntries(fields.map((f) => [f, conflict])) }))

law("a Conflict is the zero of ∧: a ∧ z matches nothing", { of: "selectors a matching at least one channel", floor: 0.25 }, 100, (note) =>
  fc.property(homeWith((h) => fc.tuple(channelSelectorOn(h), conflicting, serviceSelectorOn(h))), ([home, [a, z, s]]) => {
    const index = buildIndex(home)
    expect(selectsNothing(z)).toBe(true)
    expect(selectsNothing(andChannel(a, z))).toBe(true)
    expect(selectsNothing(andChannel(z, a))).toBe(true)
    expect(index.selectChannels([andChannel(a, z)])).toEqual([])
    expect(index.selectServices([andService(s, { ...anyService, id: conflict })])).toEqual([])
    expect(index.selectServices([andService(s, { ...anyService, getters: [z] })])).toEqual([])
    note(index.selectChannels([a]).length > 0)
  }))

law("a selector without Conflict can match: selectsNothing says Conflict only", { of: "selectors with no Conflict", floor: 0.5 }, 100, (note) =>
  fc.property(channelSelector, (selector) => {
    const hasConflict = channelFields.some((f) => selector[f]._tag === "Conflict")
    expect(selectsNothing(selector)).toBe(hasConflict)
    note(!hasConflict)
  }))

law("forMechanism(s, m) = s ∧ { mechanism: m }", matchingSome("restricted selectors", 0.1), 100, (note) =>
  fc.property(homeWith((h) => fc.tuple(channelSelectorOn(h), fc.constantFrom("getter" as const, "setter" as const))), ([home, [s, m]]) => {
    const restricted = forMechanism(s, m)
    expect(sameChannels(home, restricted, andChannel(s, { ...anyChannel, mechanism: { _tag: "Exactly", value: m } }))).toBe(true)
    expect({ ...restricted, mechanism: s.mechanism }).toEqual(s)
    note(buildIndex(home).selectChannels([restricted]).length > 0)
  }))

const constraintOf = fc.oneof(
  fc.constant<ConstraintOf<string>>({ _tag: "Empty" }),
  fc.constantFrom("a", "b").map((value): ConstraintOf<string> => ({ _tag: "Exactly", value })),
  fc.constant<ConstraintOf<string>>({ _tag: "Conflict" })
)

law("sameConstraint(a, b) holds exactly when a and b are one constraint", { of: "pairs of one constraint", floor: 0.05 }, 100, (note) =>
  fc.property(constraintOf, constraintOf, (a, b) => {
    expect(sameConstraint(a, b, same)).toBe(isDeepStrictEqual(a, b))
    // The equality is of values: it is asked only about the values of two Exactly.
    const asked: Array<readonly [string, string]> = []
    sameConstraint(a, b, (x: string, y: string) => asked.push([x, y]) > 0 && x === y)
    expect(asked.length > 0).toBe(a._tag === "Exactly" && b._tag === "Exactly")
    note(isDeepStrictEqual(a, b))
  }))

law("a constraint reads back as itself, and nothing else reads as one", { of: "constraints with a value", floor: 0.2 }, 100, (note) => {
  const read = Schema.decodeUnknownResult(Constraint(Schema.String))
  return fc.property(constraintOf, fc.constantFrom("", "Exact", "conflict"), (c, other) => {
    expect(read(c)).toEqual(Result.succeed(c))
    expect(Result.isFailure(read({ _tag: "Exactly" }))).toBe(true)
    expect(Result.isFailure(read({ _tag: other }))).toBe(true)
    note(c._tag === "Exactly")
  })
})
