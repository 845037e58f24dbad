import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { builtinKindNames } from "../../../src/domain/Kind.ts"
import { valueTypes } from "../../../src/domain/ValueType.ts"
import { sharedGateway } from "./client.ts"
import { allGetters, allServices, allSetters, home, initialValues } from "./homes.ts"

/**
 * Malformed bodies on every vocabulary B route (wire.md §6, §9): random text, random JSON of the wrong
 * shape, and near-misses of valid bodies (one wrong type, unknown field, bad value or bad id somewhere)
 * always get a 400 whose body is a JSON string naming a place in the body, never a 5xx, and leave the
 * gateway as it was: a request is validated whole before anything happens.
 *
 * Every generated body is invalid by construction: valid parts are built from the fields each selector
 * has, and exactly one defect is put in at a random place.
 */

// ---- valid parts ----------------------------------------------------------------------------------

const serviceIds = allServices.map((s) => s.id)
const channelIds = [...allGetters, ...allSetters].map((c) => c.id)
const windSpeedKind = { vendor: "acme", adapter: "weather", kind: "wind-speed", type: "ExtNumeric" }

const someServiceId = fc.constantFrom(...serviceIds, "service:nowhere@b")
const someChannelId = fc.constantFrom(...channelIds, "getter:nowhere@b", "setter:nowhere@b")
const someTags = fc.uniqueArray(fc.constantFrom("main", "light", "outside", "lock", "x"), { maxLength: 2 })
const someKind = fc.oneof(fc.constantFrom("OnOff", "Ready", "LightColor", "Thermostat", "DoorLocked"), fc.constant(windSpeedKind))

const channelSelector = fc.record(
  { id: someChannelId, service: someServiceId, tags: someTags, service_tags: someTags, kind: someKind },
  { requiredKeys: [] }
)
const serviceSelector = fc.record(
  {
    id: someServiceId,
    tags: someTags,
    getters: fc.array(channelSelector, { maxLength: 2 }),
    setters: fc.array(channelSelector, { maxLength: 2 })
  },
  { requiredKeys: [] }
)
const someValue = fc.constantFrom<unknown>({ OnOff: "On" }, { Unit: null }, null, { DoorLocked: "Locked" }, { Duration: 1.5 })

// ---- defects ----------------------------------------------------------------------------------------

/** Not an identifier, a tag or a tag list: never JSON null, which a selector field reads as absent. */
const scalar = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.string({ maxLength: 8 })
)
/** An object that is no vocabulary A constraint either (`{"Exactly": …}` reads in A on `/channels/tag`). */
const someObject = fc
  .tuple(fc.string({ maxLength: 8 }).filter((k) => !["Exactly", "Empty", "Conflict"].includes(k)), fc.jsonValue({ maxDepth: 1 }))
  .map(([key, value]) => Object.fromEntries([[key, value]]))
const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }), someObject)

/** A string no identifier or tag may be (wire.md §1). */
const badText = fc.oneof(
  fc.constant(""),
  fc.integer({ min: 257, max: 300 }).map((n) => "x".repeat(n)),
  fc
    .tuple(
      fc.string({ maxLength: 5 }),
      fc.constantFrom("\u0000", "\t", "\n", "\u001b", "\u001f", "\u007f", "\u0085", "\u009f"),
      fc.string({ maxLength: 5 })
    )
    .map(([before, control, after]) => before + control + after)
)
const badIdentifier = fc.oneof(badText, notAString)

/** A `tags` value that is not a list of tags: not an array, or a list with one bad tag among good ones. */
const badTags = fc.oneof(
  fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 8 }), someObject),
  fc.tuple(someTags, badIdentifier.filter((t) => !Array.isArray(t)), fc.nat()).map(([tags, bad, i]) => insertAt(tags, bad, i))
)

const badKind = fc.oneof(
  fc.string({ maxLength: 12 }).filter((name) => !builtinKindNames.some((k) => k === name)),
  fc.integer(),
  fc.boolean(),
  fc.constantFrom<unknown>(
    { OnOff: [] },
    { Extension: windSpeedKind },
    { vendor: "acme", adapter: "weather", kind: "wind-speed" },
    { ...windSpeedKind, type: "Float" },
    { ...windSpeedKind, extra: 1 },
    { ...windSpeedKind, vendor: 5 },
    []
  )
)

const tooDeep = (() => {
  let json: unknown = 0
  for (let i = 0; i < 300; i++) json = [json]
  return { Json: json }
})()

/** Not a Value of any type (bare `null` is FoxBox's Unit, so it is not here). */
const badValue = fc.oneof(
  fc.constantFrom<unknown>(
    { OnOff: "on" },
    { OnOff: true },
    { OpenClosed: "Ajar" },
    { DoorLocked: null },
    { Duration: -1 },
    { Duration: "60" },
    { Color: { h: 0, s: 2, v: 0 } },
    { Color: { h: 0, s: 0 } },
    { Color: { h: 0, s: 0, v: 0, a: 1 } },
    { Temperature: { K: 300 } },
    { Temperature: 21 },
    { TimeStamp: "yesterday" },
    { TimeStamp: "2026-11-22T06:00:00" },
    { TimeStamp: "2026-02-30T06:00:00Z" },
    { Unit: 0 },
    { Unit: [1] },
    { String: 5 },
    { Binary: { data: [256], mimetype: "image/png" } },
    { Binary: { data: [1] } },
    { ExtBool: { value: 1, vendor: "v", adapter: "a", kind: "k" } },
    { ExtNumeric: { value: "3", vendor: "v", adapter: "a", kind: "k" } },
    { OnOff: "On", OpenClosed: "Open" },
    tooDeep,
    {},
    [],
    "On",
    1,
    true
  ),
  fc.string({ maxLength: 10 }).filter((type) => !valueTypes.some((t) => t === type)).map((type) => Object.fromEntries([[type, null]]))
)

/** `item` put into `items` at a place chosen by `i`. */
const insertAt = <A>(items: ReadonlyArray<A>, item: A, i: number): Array<A> => {
  const out = [...items]
  out.splice(i % (items.length + 1), 0, item)
  return out
}

/** `object` with one more field, named like none of `known` (nor vocabulary A's `parent`). */
const withUnknownField = (object: fc.Arbitrary<Record<string, unknown>>, known: ReadonlyArray<string>) =>
  fc
    .tuple(object, fc.string({ maxLength: 10 }).filter((k) => !known.includes(k) && k !== "parent"), fc.jsonValue({ maxDepth: 1 }))
    .map(([o, key, value]) => Object.fromEntries([...Object.entries(o), [key, value]]))

/** `object` with `field` replaced by something it cannot hold. */
const withBadField = (object: fc.Arbitrary<Record<string, unknown>>, fields: Readonly<Record<string, fc.Arbitrary<unknown>>>) =>
  fc
    .tuple(object, fc.constantFrom(...Object.keys(fields)))
    .chain(([o, field]) => (fields[field] ?? fc.constant(1)).map((bad) => ({ ...o, [field]: bad })))

const channelFields = ["id", "service", "tags", "service_tags", "kind"]
const serviceFields = ["id", "tags", "getters", "setters"]

const badChannelSelector = fc.oneof(
  withUnknownField(channelSelector, channelFields),
  withBadField(channelSelector, { id: badIdentifier, service: badIdentifier, tags: badTags, service_tags: badTags, kind: badKind })
)

/** A nested list of channel selectors gone wrong: not an array (a single selector is not taken here), or one bad item. */
const badNestedSelectors = fc.oneof(
  channelSelector,
  scalar,
  fc.tuple(fc.array(channelSelector, { maxLength: 2 }), badChannelSelector, fc.nat()).map(([s, bad, i]) => insertAt(s, bad, i))
)

const badServiceSelector = fc.oneof(
  withUnknownField(serviceSelector, serviceFields),
  withBadField(serviceSelector, { id: badIdentifier, tags: badTags, getters: badNestedSelectors, setters: badNestedSelectors })
)

/** Selector(s) where B takes `sel(s)`, with one defect: a bad selector alone, or among good ones, or not a selector at all. */
const badSelectors = (good: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) =>
  fc.oneof(
    bad,
    fc.oneof(scalar, fc.constant(null)),
    fc
      .tuple(fc.array(good, { maxLength: 3 }), fc.oneof(bad, scalar, fc.constant(null), fc.array(good, { maxLength: 1 })), fc.nat())
      .map(([items, item, i]) => insertAt(items, item, i))
  )

const goodSelectors = (good: fc.Arbitrary<unknown>) => fc.oneof(good, fc.array(good, { maxLength: 3 }))

/** A tag body `{key: sel(s), "tags": [..]}` with one defect. */
const badTagBody = (key: string, good: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) => {
  const body = fc.record({ [key]: goodSelectors(good), tags: someTags })
  return fc.oneof(
    fc.record({ [key]: badSelectors(good, bad), tags: someTags }),
    fc.record({ [key]: goodSelectors(good), tags: badTags }),
    fc.record({ [key]: goodSelectors(good) }),
    fc.record({ tags: someTags }),
    withUnknownField(body, [key, "tags"]),
    fc.oneof(scalar, fc.constant(null), fc.array(body, { maxLength: 2 }))
  )
}

const sendTarget = fc.record({ select: goodSelectors(channelSelector), value: someValue })
const badSendTarget = fc.oneof(
  fc.record({ select: badSelectors(channelSelector, badChannelSelector), value: someValue }),
  fc.record({ select: goodSelectors(channelSelector), value: badValue }),
  fc.record({ select: goodSelectors(channelSelector) }),
  fc.record({ value: someValue }),
  withUnknownField(sendTarget, ["select", "value"])
)

const badSendBody = fc.oneof(
  badSendTarget,
  fc.tuple(fc.array(sendTarget, { maxLength: 2 }), fc.oneof(badSendTarget, scalar, fc.constant(null)), fc.nat())
    .map(([targets, bad, i]) => insertAt<unknown>(targets, bad, i)),
  fc.tuple(badSelectors(channelSelector, badChannelSelector), someValue),
  fc.tuple(goodSelectors(channelSelector), badValue),
  fc.oneof(scalar, fc.constant(null))
)

// ---- bodies as sent -----------------------------------------------------------------------------------

const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** Text that is not JSON: random text, or a valid body cut short (a cut object or array never parses). */
const notJson = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim() !== "" && !parses(text)),
    fc.tuple(valid.map((json) => JSON.stringify(json)), fc.nat()).map(([text, n]) => text.slice(0, 1 + (n % (text.length - 1))))
  )

/** Every field name of every B body and selector, and vocabulary A's: a key outside these is unknown everywhere. */
const knownAnywhere = ["id", "service", "tags", "service_tags", "kind", "getters", "setters", "services", "set", "select", "value", "parent"]

/** Random JSON of the shape of a body (objects, or arrays of them) whose every key is unknown to every route. */
const randomJson = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 10 }).filter((k) => !knownAnywhere.includes(k)), fc.jsonValue({ maxDepth: 2 }), {
    minKeys: 1,
    maxKeys: 3
  }),
  fc.array(
    fc.dictionary(fc.string({ maxLength: 10 }).filter((k) => !knownAnywhere.includes(k)), fc.jsonValue({ maxDepth: 1 }), {
      minKeys: 1,
      maxKeys: 2
    }),
    { minLength: 1, maxLength: 3 }
  )
)

/** A body as sent: JSON text with one defect, random JSON of no body's shape, or text that is not JSON. */
const sent = (bad: fc.Arbitrary<unknown>, valid: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 4, arbitrary: bad.map((json) => JSON.stringify(json)) },
    { weight: 1, arbitrary: randomJson.map((json) => JSON.stringify(json)) },
    { weight: 1, arbitrary: notJson(valid) }
  )

const serviceSelectors = sent(badSelectors(serviceSelector, badServiceSelector), goodSelectors(serviceSelector).map((s) => [s]))
const channelSelectors = sent(badSelectors(channelSelector, badChannelSelector), goodSelectors(channelSelector).map((s) => [s]))
const tagBody = (key: string, good: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) =>
  sent(badTagBody(key, good, bad), fc.record({ [key]: goodSelectors(good), tags: someTags }))

/** Every method and path of vocabulary B, with malformed bodies for it. */
const requests: ReadonlyArray<readonly [method: string, path: string, body: fc.Arbitrary<string>]> = [
  ["GET", "/api/v1/services", serviceSelectors],
  ["POST", "/api/v1/services", serviceSelectors],
  ...(["POST", "DELETE"] as const).flatMap((method) => [
    [method, "/api/v1/services/tag", tagBody("services", serviceSelector, badServiceSelector)] as const,
    [method, "/api/v1/services/tags", tagBody("services", serviceSelector, badServiceSelector)] as const,
    [method, "/api/v1/channels/tag", tagBody("set", channelSelector, badChannelSelector)] as const,
    [method, "/api/v1/channels/getter/tags", tagBody("getters", channelSelector, badChannelSelector)] as const,
    [method, "/api/v1/channels/setter/tags", tagBody("setters", channelSelector, badChannelSelector)] as const
  ]),
  ["GET", "/api/v1/channels/getters", channelSelectors],
  ["POST", "/api/v1/channels/getters", channelSelectors],
  ["GET", "/api/v1/channels/setters", channelSelectors],
  ["POST", "/api/v1/channels/setters", channelSelectors],
  ["GET", "/api/v1/channels/get", channelSelectors],
  ["PUT", "/api/v1/channels/get", channelSelectors],
  ["POST", "/api/v1/channels/get", channelSelectors],
  ["PUT", "/api/v1/channels/set", sent(badSendBody, fc.array(sendTarget, { maxLength: 2 }))]
]

/** Runs per route: about 2,000 requests in all, a few seconds on two cores. */
const runsPerRoute = 100

describe("malformed bodies on every vocabulary B route", () => {
  const { call } = sharedGateway(home)

  it.each(requests)("%s %s: a 400 whose body is a JSON string naming a place in the body; nothing changes", async (method, path, body) => {
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const answer = await call(method, path, text)
        expect(answer.status).toBe(400)
        expect(typeof answer.body).toBe("string")
        expect(answer.body).toMatch(/^body[.[:]/)
        // Tags and `updated` (every setter starts never written) show any tag or write that got through.
        expect(await call("GET", "/api/v1/services")).toEqual({ status: 200, body: allServices })
      }),
      { numRuns: runsPerRoute }
    )
    expect(await call("GET", "/api/v1/channels/get")).toEqual({ status: 200, body: initialValues })
  })
})
