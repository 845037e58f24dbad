import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as A from "../../../src/vocabulary/a/index.ts"
import { decodeChannelTagBody } from "../../../src/vocabulary/ChannelTagBody.ts"
import { InvalidInput } from "../../../src/vocabulary/common/InvalidInput.ts"
import { channel, fetchResults, sendResults, service, tagRequest, watchEvent } from "../../arbitraries/domain.ts"
import { channelTagSelector, getSelector, nodeSelector, sendTarget, setSelector, watchTarget } from "./arbitraries.ts"

const decoders: ReadonlyArray<readonly [string, (json: unknown) => Result.Result<unknown, InvalidInput>]> = [
  ["decodeKind", (j) => A.decodeKind(j)],
  ["decodeNodeSelectors", (j) => A.decodeNodeSelectors(j)],
  ["decodeGetSelectors", (j) => A.decodeGetSelectors(j)],
  ["decodeSetSelectors", (j) => A.decodeSetSelectors(j)],
  ["decodeChannelTagSelectors", (j) => A.decodeChannelTagSelectors(j)],
  ["decodeNodes", (j) => A.decodeNodes(j)],
  ["decodeChannels", (j) => A.decodeChannels(j)],
  ["decodeNodeTagBody", (j) => A.decodeNodeTagBody(j)],
  ["decodeChannelTagBody", (j) => A.decodeChannelTagBody(j)],
  // What the shared /channels/tag route calls: both codecs, then the sniffer that picks the error.
  ["decodeChannelTagBody of either vocabulary", (j) => decodeChannelTagBody(j, undefined)],
  ["decodeGetValueBody", (j) => A.decodeGetValueBody(j)],
  ["decodePutValueBody", (j) => A.decodePutValueBody(j)],
  ["decodeWatchFrame", (j) => A.decodeWatchFrame(j)],
  ["decodeChannelError", (j) => A.decodeChannelError(j)],
  ["decodeFetchResults", (j) => A.decodeFetchResults(j)],
  ["decodeSendResults", (j) => A.decodeSendResults(j)],
  ["decodeWatchEvent", (j) => A.decodeWatchEvent(j)]
]

const encodedOrNothing = (r: Result.Result<unknown, unknown>): unknown => Result.getOrUndefined(r)

/** Well-formed A JSON of every shape, to be damaged at a random place. */
const wellFormed: fc.Arbitrary<unknown> = fc.oneof(
  fc.array(nodeSelector, { maxLength: 2 }).map((s) => encodedOrNothing(A.encodeNodeSelectors(s))),
  fc.array(getSelector, { maxLength: 2 }).map((s) => encodedOrNothing(A.encodeGetSelectors(s))),
  fc.array(setSelector, { maxLength: 2 }).map((s) => encodedOrNothing(A.encodeSetSelectors(s))),
  fc.array(service, { maxLength: 2 }).map(A.encodeNodes),
  fc.array(channel, { maxLength: 2 }).map(A.encodeChannels),
  tagRequest(nodeSelector).map((r) => encodedOrNothing(A.encodeNodeTagBody(r))),
  tagRequest(channelTagSelector).map((r) => encodedOrNothing(A.encodeChannelTagBody(r))),
  sendTarget.map((t) => encodedOrNothing(A.encodePutValueBody([t]))),
  fc.array(watchTarget, { maxLength: 2 }).map((r) => encodedOrNothing(A.encodeWatchFrame(r))),
  fetchResults.map(A.encodeFetchResults),
  sendResults.map(A.encodeSendResults),
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
  it.each(decoders)("%s never throws on random JSON, and fails only with InvalidInput", (_, decode) => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (json) => {
      const result = decode(json)
      expect(Result.isResult(result)).toBe(true)
      if (Result.isFailure(result)) expect(result.failure).toBeInstanceOf(InvalidInput)
    }), { numRuns: 300 })
  })

  it.each(decoders)("%s never throws on any JavaScript value, prototype keys included", (_, decode) => {
    fc.assert(fc.property(fc.anything({ withObjectString: true, withNullPrototype: true }), (json) => {
      expect(Result.isResult(decode(json))).toBe(true)
    }), { numRuns: 200 })
    for (const tricky of [JSON.parse(`{"__proto__": []}`), JSON.parse(`[{"__proto__": {"Exactly": "x"}}]`), { constructor: [] }]) {
      expect(Result.isResult(decode(tricky))).toBe(true)
    }
  })

  it.each(decoders)("%s never throws on well-formed A bodies damaged at one place", (_, decode) => {
    fc.assert(fc.property(wellFormed, fc.nat(), fc.jsonValue({ maxDepth: 2 }), (json, n, patch) => {
      const result = decode(replaceNode(json, n, patch))
      if (Result.isFailure(result)) expect(result.failure.message).toMatch(/^body[.[:]/)
    }), { numRuns: 200 })
  })
})
