import * as fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import * as B from "../../../src/vocabulary/b/index.ts"
import { decodeChannelTagBody } from "../../../src/vocabulary/ChannelTagBody.ts"
import { InvalidInput } from "../../../src/vocabulary/common/InvalidInput.ts"
import { TimestampJson } from "../../../src/vocabulary/common/TimestampJson.ts"
import {
  channelError,
  fetchResults,
  getterSelector,
  range,
  sendResults,
  sendTarget,
  service,
  serviceSelector,
  value,
  watchEvent,
  watchTarget
} from "../../arbitraries/domain.ts"
import { deeplyNested } from "../common/expectations.ts"
import { decode, encode } from "../../../src/vocabulary/common/WireIssue.ts"
import { misbehaving, type NamedDecoder } from "../misbehavingDecoders.ts"

const decoders: ReadonlyArray<NamedDecoder> = [
  ["value", (json) => decode(B.ValueInputJson, json)],
  ["range", (json) => decode(B.RangeJson, json)],
  ["timestamp", (json) => decode(TimestampJson, json)],
  ["kind", (json) => decode(B.KindJson, json)],
  ["service selectors", (json) => decode(B.ServiceSelectorsJson, json)],
  ["getter selectors", (json) => decode(B.GetterSelectorsJson, json)],
  ["setter selectors", (json) => decode(B.SetterSelectorsJson, json)],
  ["either-mechanism selectors", (json) => decode(B.EitherChannelSelectorsJson, json)],
  ["services", (json) => decode(B.ServicesJson, json)],
  ["channels", (json) => decode(B.ChannelsJson, json)],
  ["service tag body", (json) => decode(B.ServiceTagBodyJson, json)],
  ["channel tag body", (json) => decode(B.ChannelTagBodyJson, json)],
  // What the shared /channels/tag route calls: both codecs, then the sniffer that picks the error.
  ["channel tag body of either vocabulary", (json) => decodeChannelTagBody(json, undefined)],
  ["getter tag body", (json) => decode(B.GetterTagBodyJson, json)],
  ["setter tag body", (json) => decode(B.SetterTagBodyJson, json)],
  ["fetch body", (json) => decode(B.GetterSelectorsJson, json)],
  ["send body", (json) => decode(B.SendBodyJson, json)],
  ["watch frame", (json) => decode(B.WatchFrameJson, json)],
  ["fetch results", (json) => decode(B.FetchResultsJson, json)],
  ["send results", (json) => decode(B.SendResultsJson, json)],
  ["channel error", (json) => decode(B.ChannelErrorJson, json)],
  ["watch event", (json) => decode(B.WatchEventJson, json)]
]

/** Valid encodings of every shape, so that mutations reach deep into the decoders. */
const validJson: fc.Arbitrary<unknown> = fc.oneof(
  value.map(B.ValueJson.write),
  range.map(B.RangeJson.write),
  fc.array(serviceSelector(), { maxLength: 2 }).map(B.ServiceSelectorsJson.write),
  fc.array(service, { maxLength: 2 }).map(B.ServicesJson.write),
  fc.array(sendTarget(), { maxLength: 2 }).map(B.SendBodyJson.write),
  fc.array(getterSelector(), { maxLength: 2 }).map((selectors) => ({ set: B.GetterSelectorsJson.write(selectors), tags: ["x"] })),
  fc.array(watchTarget(getterSelector()), { maxLength: 2 }).map((targets) =>
    Result.getOrElse(encode(B.WatchFrameJson, targets.map((t) => ({ ...t, topology: true }))), () => [])
  ),
  fetchResults.map(B.FetchResultsJson.write),
  sendResults.map(B.SendResultsJson.write),
  channelError.map(B.ChannelErrorJson.write),
  watchEvent.map(B.WatchEventJson.write)
)

/** Replaces the `n`-th node (depth first) of `json` with `replacement`: a near miss of a valid body. */
const replaceNode = (json: unknown, n: number, replacement: unknown): unknown => {
  let remaining = n
  const walk = (node: unknown): unknown => {
    if (remaining-- === 0) return replacement
    if (Array.isArray(node)) return node.map(walk)
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]))
    }
    return node
  }
  return walk(json)
}

const nearMiss = fc.tuple(validJson, fc.nat({ max: 40 }), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.anything()))
  .map(([json, n, replacement]) => replaceNode(JSON.parse(JSON.stringify(json)), n, replacement))

const anyInput = fc.oneof(fc.jsonValue(), fc.anything({ withNullPrototype: true, withBoxedValues: true }), nearMiss)

describe("decoders never throw", () => {
  it("any input gives each decoder a Result, a failure being an InvalidInput that names a place in the body", () => {
    fc.assert(fc.property(anyInput, (json) => {
      expect(misbehaving(decoders, json, (result) =>
        Result.isResult(result) && (Result.isSuccess(result) || (result.failure instanceof InvalidInput && /^body[.[:]/.test(result.failure.message))))
      ).toEqual([])
    }), { numRuns: 300 })
  })

  it("a body nested a hundred thousand levels deep is refused, not a stack overflow", () => {
    const deep = deeplyNested(100_000)
    for (const [, decode] of decoders) expect(Result.isFailure(decode(deep))).toBe(true)
    for (const [, decode] of decoders) expect(Result.isResult(decode({ Json: deep }))).toBe(true)
    const deepObject = JSON.parse("{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000))
    for (const [, decode] of decoders) {
      for (const body of [deepObject, { set: deepObject, tags: [] }, [{ tags: [deepObject] }], [[deep], null]]) {
        expect(Result.isFailure(decode(body))).toBe(true)
      }
    }
  })
})
