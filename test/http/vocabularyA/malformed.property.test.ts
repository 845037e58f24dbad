import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { builtinKindNames } from "../../../src/domain/Kind.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
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
import { exchange, started } from "./exchange.ts"
import { allInputs, allNodes, allOutputs, home, windSpeedValue } from "./homes.ts"

/**
 * Malformed bodies on every vocabulary A route (docs/reference.md §4–6, §9), the twin of vocabularyB's
 * malformed.property.test.ts: random text, random JSON of no body's shape, and near-misses of valid A
 * bodies (a bad `{"Exactly": …}` wrapper, B's bare id or kind, a single selector where A wants an array,
 * an unknown field, an invalid value, a bad id or tag somewhere) always get a 400 whose body is a JSON
 * string naming a place in the body, never a 5xx, and leave the gateway as it was: a request is
 * validated whole before anything happens.
 *
 * Every generated body is invalid by construction: valid parts are built from the fields each selector
 * has, and exactly one defect is put in at a random place. JSON `null` is never put where a selector
 * field is optional (docs/reference.md does not say what it means there); it is put only where a selector, a
 * list of selectors, a body or an identifier is due.
 */

// ---- valid parts ----------------------------------------------------------------------------------

const nodeIds = allNodes.map((n) => n.id)
const channelIds = [...allInputs, ...allOutputs].map((c) => c.id)

const someNodeId = fc.constantFrom(...nodeIds, "service:nowhere@test")
const someChannelId = fc.constantFrom(...channelIds, "getter:nowhere@test", "setter:nowhere@test")
const someTags = fc.uniqueArray(fc.constantFrom("main", "light", "outside", "door", "x"), { maxLength: 2 })
/** Kinds as vocabulary A writes them (docs/reference.md §3). */
const someKind = fc.constantFrom<unknown>(
  { OnOff: [] },
  { Ready: [] },
  { DoorLocked: [] },
  { OpenClosed: [] },
  { LightColor: [] },
  { Extension: windSpeedKind }
)

/** A selector field's constraint (docs/reference.md §4): `{"Exactly": x}`, `{"Empty": []}` or `{"Conflict": []}`. */
const constraint = (payload: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 4, arbitrary: payload.map((x) => ({ Exactly: x })) },
    { weight: 1, arbitrary: fc.constant({ Empty: [] }) },
    { weight: 1, arbitrary: fc.constant({ Conflict: [] }) }
  )

/** A GetSelector or a SetSelector: they have the same fields. */
const channelSelector = fc.record(
  { id: constraint(someChannelId), parent: constraint(someNodeId), tags: someTags, kind: constraint(someKind) },
  { requiredKeys: [] }
)
const nodeSelector = fc.record(
  {
    id: constraint(someNodeId),
    tags: someTags,
    inputs: fc.array(channelSelector, { maxLength: 2 }),
    outputs: fc.array(channelSelector, { maxLength: 2 })
  },
  { requiredKeys: [] }
)
// ---- defects ----------------------------------------------------------------------------------------

/** What `{"Exactly": …}` of an `id` or `parent` cannot hold: a bad string, no string, or a wrapper twice. */
const badIdentifier = (good: fc.Arbitrary<string>) =>
  fc.oneof(badText, notAString, fc.constant(null), good.map((id) => ({ Exactly: id })))

/** A `tags` value that is not a list of tags: not an array, or a list with one bad tag among good ones. */
const badTags = fc.oneof(
  fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 8 }), someObject),
  fc
    .tuple(someTags, fc.oneof(badText, fc.integer(), fc.boolean(), someObject, fc.constant(null)), fc.nat())
    .map(([tags, bad, i]) => insertAt<unknown>(tags, bad, i))
)

/** What `{"Exactly": …}` of a `kind` cannot hold: no kind as vocabulary A writes kinds (docs/reference.md §3). */
const badKind = fc.oneof(
  fc
    .string({ maxLength: 12 })
    .filter((name) => name !== "Extension" && !builtinKindNames.some((k) => k === name))
    .map((name) => Object.fromEntries([[name, []]])),
  fc.constantFrom<unknown>(
    // vocabulary B's kinds
    "OnOff",
    "LightColor",
    windSpeedKind,
    // a built-in kind that does not hold exactly an empty array
    { OnOff: null },
    { OnOff: {} },
    { OnOff: [1] },
    { Ready: "" },
    { DoorLocked: [[]] },
    // extensions gone wrong
    { Extension: { ...windSpeedKind, type: "Float" } },
    { Extension: { vendor: "acme", adapter: "weather", kind: "wind-speed" } },
    { Extension: { ...windSpeedKind, extra: 1 } },
    { Extension: { ...windSpeedKind, vendor: 5 } },
    { Extension: [] },
    { Extension: "wind-speed" },
    // not one kind
    { OnOff: [], Ready: [] },
    { Exactly: { OnOff: [] } },
    [{ OnOff: [] }],
    {},
    [],
    null,
    3,
    true
  )
)

/**
 * A selector field gone wrong: the bare payload (vocabulary B's `"id": "getter:…"`, or a kind unwrapped),
 * `{"Exactly": bad}`, or a wrapper that is no constraint.
 */
const badConstraint = (bare: fc.Arbitrary<unknown>, badPayload: fc.Arbitrary<unknown>) =>
  fc.oneof(
    bare,
    badPayload.map((x) => ({ Exactly: x })),
    fc.tuple(fc.constantFrom("exactly", "EXACTLY", "Exact", "Eq", "Is"), bare).map(([key, x]) => Object.fromEntries([[key, x]])),
    bare.map((x) => ({ Exactly: x, Empty: [] })),
    bare.map((x) => [{ Exactly: x }]),
    fc.constantFrom<unknown>(
      {},
      { Empty: null },
      { Empty: {} },
      { Empty: [0] },
      { Empty: "" },
      { Conflict: null },
      { Conflict: [[]] },
      { Conflict: true },
      { Empty: [], Conflict: [] }
    ),
    someObject,
    scalar
  )

const badIdField = badConstraint(someChannelId, badIdentifier(someChannelId))
const badParentField = badConstraint(someNodeId, badIdentifier(someNodeId))
const badNodeIdField = badConstraint(someNodeId, badIdentifier(someNodeId))
const badKindField = badConstraint(fc.oneof(someKind, fc.constantFrom<unknown>("OnOff", "Ready", windSpeedKind)), badKind)

const channelFields = ["id", "parent", "tags", "kind"]
const nodeFields = ["id", "tags", "inputs", "outputs"]

const badChannelSelector = fc.oneof(
  withUnknownField(channelSelector, channelFields),
  withBadField(channelSelector, { id: badIdField, parent: badParentField, tags: badTags, kind: badKindField })
)

/**
 * Where A wants `[selector]` (a whole read body, a tag body's `set`, a put body's selectors, a
 * NodeSelector's `inputs`/`outputs`), with one defect: a single selector (good or bad) in place of the
 * array, no selector list at all, or an array holding one thing that is no good selector.
 */
const badSelectors = (good: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) =>
  fc.oneof(
    good,
    bad,
    fc.oneof(scalar, fc.constant(null)),
    fc
      .tuple(fc.array(good, { maxLength: 3 }), fc.oneof(bad, scalar, fc.constant(null), fc.array(good, { maxLength: 1 })), fc.nat())
      .map(([items, item, i]) => insertAt(items, item, i))
  )

const goodSelectors = (good: fc.Arbitrary<unknown>) => fc.array(good, { maxLength: 3 })

const badNodeSelector = fc.oneof(
  withUnknownField(nodeSelector, nodeFields),
  withBadField(nodeSelector, {
    id: badNodeIdField,
    tags: badTags,
    // `null` is left out here: it is not said what an optional field set to null means
    inputs: badSelectors(channelSelector, badChannelSelector).filter((s) => s !== null),
    outputs: badSelectors(channelSelector, badChannelSelector).filter((s) => s !== null)
  })
)

/** A tag body `{"set": [selector], "tags": [..]}` with one defect. */
const badTagBody = (good: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) => {
  const body = fc.record({ set: goodSelectors(good), tags: someTags })
  return fc.oneof(
    fc.record({ set: badSelectors(good, bad), tags: someTags }),
    fc.record({ set: goodSelectors(good), tags: badTags }),
    fc.record({ set: goodSelectors(good) }),
    fc.record({ tags: someTags }),
    // vocabulary B's key for the selectors
    fc
      .tuple(fc.constantFrom("services", "getters", "setters", "select"), goodSelectors(good), someTags)
      .map(([key, selectors, tags]) => Object.fromEntries([[key, selectors], ["tags", tags]])),
    withUnknownField(body, ["set", "tags"]),
    fc.oneof(scalar, fc.constant(null), fc.array(body, { maxLength: 2 }))
  )
}

/** put_channel_value's body (docs/reference.md §6.3): the pair `[[SetSelector], V]` or `{"set": [SetSelector], "value": V}`, with one defect. */
const putBody = fc.record({ set: goodSelectors(channelSelector), value: someValue })
const badPutBody = fc.oneof(
  // the object form
  fc.record({ set: badSelectors(channelSelector, badChannelSelector), value: someValue }),
  fc.record({ set: goodSelectors(channelSelector), value: badValue }),
  fc.record({ set: goodSelectors(channelSelector) }),
  fc.record({ value: someValue }),
  fc.record({ select: goodSelectors(channelSelector), value: someValue }),
  withUnknownField(putBody, ["set", "value"]),
  // the pair form
  fc.tuple(badSelectors(channelSelector, badChannelSelector), someValue),
  fc.tuple(goodSelectors(channelSelector), badValue),
  fc.tuple(someValue, goodSelectors(channelSelector)),
  fc.tuple(goodSelectors(channelSelector)),
  fc.tuple(goodSelectors(channelSelector), someValue, someValue),
  // no body of either form
  fc.array(putBody, { maxLength: 2 }),
  fc.oneof(scalar, fc.constant(null))
)

// ---- bodies as sent -----------------------------------------------------------------------------------

const nodeSelectors = sent(badSelectors(nodeSelector, badNodeSelector), goodSelectors(nodeSelector))
const channelSelectors = sent(badSelectors(channelSelector, badChannelSelector), goodSelectors(channelSelector))
const tagBody = (good: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) =>
  sent(badTagBody(good, bad), fc.record({ set: goodSelectors(good), tags: someTags }))
const putBodies = sent(badPutBody, fc.oneof(putBody, fc.tuple(goodSelectors(channelSelector), someValue)))

/** Every method and path of vocabulary A (VocabularyARoutes.ts, ChannelTagRoutes.ts), with malformed bodies for it. */
const requests: ReadonlyArray<readonly [method: string, path: string, body: fc.Arbitrary<string>]> = [
  ["GET", "/api/v1/nodes", nodeSelectors],
  ["POST", "/api/v1/nodes/tag", tagBody(nodeSelector, badNodeSelector)],
  ["DELETE", "/api/v1/nodes/tag", tagBody(nodeSelector, badNodeSelector)],
  ["GET", "/api/v1/channels", channelSelectors],
  ["GET", "/api/v1/channels/inputs", channelSelectors],
  ["GET", "/api/v1/channels/outputs", channelSelectors],
  // The path is shared with vocabulary B: forced to A, so that a body B would read is A's defect.
  ["POST", "/api/v1/channels/tag?vocabulary=a", tagBody(channelSelector, badChannelSelector)],
  ["DELETE", "/api/v1/channels/tag?vocabulary=a", tagBody(channelSelector, badChannelSelector)],
  ["GET", "/api/v1/channels/value", channelSelectors],
  ["POST", "/api/v1/channels/value", putBodies]
]

/** Runs per route: about 2,000 malformed requests in all, a few seconds on two cores. */
const runsPerRoute = 200

/** Every input's value before any write, as get_channel_value answers them. */
const initialValues = [
  ["getter:back-door-lock@test", { Ok: { DoorLocked: "Locked" } }],
  ["getter:back-door@test", { Ok: { OpenClosed: "Closed" } }],
  ["getter:porch-light-on@test", { Ok: { OnOff: "Off" } }],
  ["getter:wind-gauge-ready@test", { Ok: null }],
  ["getter:wind-speed@test", { Ok: windSpeedValue }]
]

describe("malformed bodies on every vocabulary A route", () => {
  let gateway: GatewayOverHttp | undefined
  beforeAll(async () => {
    gateway = await startGateway(home)
  })
  afterAll(() => gateway?.close())
  const call = exchange(() => started(gateway))

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
    // Tags, and `updated` of the outputs (never written yet), show any tag or write that got through. A
    // route only adds tags, only removes them or only writes, so no later request of its runs can undo
    // what an earlier one changed: one look after all its runs sees what a look after each would (at half
    // the requests), though not which body it was.
    expect(await call("GET", "/api/v1/nodes")).toEqual({ status: 200, body: allNodes })
    expect(await call("GET", "/api/v1/channels/value")).toEqual({ status: 200, body: initialValues })
  })
})
