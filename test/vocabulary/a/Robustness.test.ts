import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as A from "../../../src/vocabulary/a/index.ts"
import { decodeChannelTagBody } from "../../../src/vocabulary/ChannelTagBody.ts"
import { InvalidInput } from "../../../src/vocabulary/common/InvalidInput.ts"
import { channel, fetchResults, sendResults, service, tagRequest, watchEvent } from "../../arbitraries/domain.ts"
import { channelTagSelector, getSelector, nodeSelector, sendTarget, setSelector, watchTarget } from "./arbitraries.ts"
import { decode, encode } from "../../../src/vocabulary/common/WireIssue.ts"
import { misbehaving, type NamedDecoder } from "../misbehavingDecoders.ts"

const decoders: ReadonlyArray<NamedDecoder> = [
  ["decodeKind", (j) => decode(A.KindJson, j)],
  ["decodeNodeSelectors", (j) => decode(A.NodeSelectorsJson, j)],
  ["decodeGetSelectors", (j) => decode(A.GetSelectorsJson, j)],
  ["decodeSetSelectors", (j) => decode(A.SetSelectorsJson, j)],
  ["decodeChannelTagSelectors", (j) => decode(A.ChannelTagSelectorsJson, j)],
  ["decodeNodes", (j) => decode(A.NodesJson, j)],
  ["decodeChannels", (j) => decode(A.ChannelsJson, j)],
  ["decodeNodeTagBody", (j) => decode(A.NodeTagBodyJson, j)],
  ["decodeChannelTagBody", (j) => decode(A.ChannelTagBodyJson, j)],
  // What the shared /channels/tag route calls: both codecs, then the sniffer that picks the error.
  ["decodeChannelTagBody of either vocabulary", (j) => decodeChannelTagBody(j, undefined)],
  ["decodeGetValueBody", (j) => decode(A.GetSelectorsJson, j)],
  ["decodePutValueBody", (j) => decode(A.PutValueBodyJson, j)],
  ["decodeWatchFrame", (j) => decode(A.WatchFrameJson, j)],
  ["decodeChannelError", (j) => decode(A.ChannelErrorJson, j)],
  ["decodeFetchResults", (j) => decode(A.FetchResultsJson, j)],
  ["decodeSendResults", (j) => decode(A.SendResultsJson, j)],
  ["decodeWatchEvent", (j) => decode(A.WatchEventJson, j)]
]

const encodedOrNothing = (r: Result.Result<unknown, unknown>): unknown => Result.getOrUndefined(r)

/** Well-formed A JSON of every shape, to be damaged at a random place. */
const wellFormed: fc.Arbitrary<unknown> = fc.oneof(
  fc.array(nodeSelector, { maxLength: 2 }).map((s) => encodedOrNothing(encode(A.NodeSelectorsJson, s))),
  fc.array(getSelector, { maxLength: 2 }).map((s) => encodedOrNothing(encode(A.GetSelectorsJson, s))),
  fc.array(setSelector, { maxLength: 2 }).map((s) => encodedOrNothing(encode(A.SetSelectorsJson, s))),
  fc.array(service, { maxLength: 2 }).map(A.NodesJson.write),
  fc.array(channel, { maxLength: 2 }).map(A.ChannelsJson.write),
  tagRequest(nodeSelector).map((r) => encodedOrNothing(encode(A.NodeTagBodyJson, r))),
  tagRequest(channelTagSelector).map((r) => encodedOrNothing(encode(A.ChannelTagBodyJson, r))),
  sendTarget.map((t) => encodedOrNothing(encode(A.PutValueBodyJson, [t]))),
  fc.array(watchTarget, { maxLength: 2 }).map((r) => encodedOrNothing(encode(A.WatchFrameJson, r))),
  fetchResults.map(A.FetchResultsJson.write),
  sendResults.map(A.SendResultsJson.write),
  watchEvent.map((e) => A.encodeWatchEvent(e))
).map((json) => JSON.parse(JSON.stringify(json ?? null)))

/** Replaces the `n`-th node (in document order, counted modulo the number of nodes) of `json` by `patch`. */
const replaceNode = (json: unknown, n: number, patch: unknown): unknown => {
  let counter = 0
  const nodes = (u: unknown): number =>
    1 + (u !== null && typeof u === "object" ? Object.values(u).reduce<number>((sum, v) => sum + nodes(v), 0) : 0)
  const target = n % nodes(json)
  const walk = (u: unknown): unknown => {
    if (counter++ === target) return patch
    if (Array.isArray(u)) return u.map(walk)
    if (u !== null && typeof u === "object") return Object.fromEntries(Object.entries(u).map(([k, v]) => [k, walk(v)]))
    return u
  }
  return walk(json)
}

describe("decoders of vocabulary A on arbitrary input", () => {
  it("never throw on random JSON, and fail only with InvalidInput", () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (json) => {
      expect(misbehaving(decoders, json, (result) => Result.isResult(result) && (Result.isSuccess(result) || result.failure instanceof InvalidInput)))
        .toEqual([])
    }), { numRuns: 300 })
  })

  it("never throw on any JavaScript value, prototype keys included", () => {
    fc.assert(fc.property(fc.anything({ withObjectString: true, withNullPrototype: true }), (json) => {
      expect(misbehaving(decoders, json, Result.isResult)).toEqual([])
    }), { numRuns: 200 })
    for (const tricky of [JSON.parse(`{"__proto__": []}`), JSON.parse(`[{"__proto__": {"Exactly": "x"}}]`), { constructor: [] }]) {
      expect(misbehaving(decoders, tricky, Result.isResult)).toEqual([])
    }
  })

  it("never throw on well-formed A bodies damaged at one place, and name a place in the body", () => {
    fc.assert(fc.property(wellFormed, fc.nat(), fc.jsonValue({ maxDepth: 2 }), (json, n, patch) => {
      expect(misbehaving(decoders, replaceNode(json, n, patch), (result) => Result.isSuccess(result) || /^body[.[:]/.test(result.failure.message)))
        .toEqual([])
    }), { numRuns: 200 })
  })
})
