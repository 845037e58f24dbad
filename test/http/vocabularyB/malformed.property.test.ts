import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { builtinKindNames } from "../../../src/domain/Kind.ts"
import {
  badText,
  badValue,
  insertAt,
  notAString,
  scalar,
  sent,
  someObject,
  someValue,
  windSpeedKind,
  withBadField,
  withUnknownField
} from "../malformedBodies.ts"
import { sharedGateway } from "../../support/hookedGateway.ts"
import { allGetters, allServices, allSetters, home, initialValues } from "./homes.ts"

/**
 * Malformed bodies on every vocabulary B route (docs/reference.md §9, §10): random text, random JSON of the wrong
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

// ---- defects ----------------------------------------------------------------------------------------

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

const channelFields = ["id", "service", "tags", "service_tags", "kind"]
const serviceFields = ["id", "tags", "getters", "setters"]

const badChannelSelector = fc.oneof(
  // Not A's `parent` either: on `/channels/tag` a selector that reads as A is A's, and may be valid there.
  withUnknownField(channelSelector, [...channelFields, "parent"]),
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
      }),
      { numRuns: runsPerRoute }
    )
    // Tags and `updated` (every setter starts never written) show any tag or write that got through. A
    // route only adds tags, only removes them or only writes, so no later request of its runs can undo
    // what an earlier one changed: one look after all its runs sees what a look after each would (at half
    // the requests), though not which body it was.
    expect(await call("GET", "/api/v1/services")).toEqual({ status: 200, body: allServices })
    expect(await call("GET", "/api/v1/channels/get")).toEqual({ status: 200, body: initialValues })
  })
})
