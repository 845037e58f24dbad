import { Arbitrary, Effect, Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as A from "../../src/vocabulary/a/index.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import { ChannelTagBodyJson } from "../../src/vocabulary/ChannelTagBody.ts"
import { AdapterIdJson, ChannelIdJson, ServiceIdJson, TagsJson } from "../../src/vocabulary/common/IdentifierJson.ts"
import { RangeJson } from "../../src/vocabulary/common/RangeJson.ts"
import { TimestampJson } from "../../src/vocabulary/common/TimestampJson.ts"
import { ValueInputJson, ValueJson, ValueOrNullJson, ValueTypeJson } from "../../src/vocabulary/common/ValueJson.ts"
import { parseOptions } from "../../src/vocabulary/common/WireIssue.ts"

/**
 * The round-trip law of every wire shape, derived from the shape's own schema: its arbitrary generates
 * model values `x`, any of them; what a vocabulary writes of `x` reads, as `y = decode(encode(x))` (it may
 * forget what it has no words for, and it reads in canonical form: tags sorted, durations in
 * milliseconds, lists in id order). On such values, the values the gateway holds,
 *
 *   decode(encode(y)) = y      and      encode(decode(encode(y))) = encode(y)
 *
 * over JSON text, as on the wire. A value a vocabulary cannot say at all (Unexpressible) is skipped.
 */
const shapes: ReadonlyArray<readonly [string, Schema.Codec<unknown, unknown>]> = [
  ["ChannelId", ChannelIdJson],
  ["ServiceId", ServiceIdJson],
  ["AdapterId", AdapterIdJson],
  ["Tags", TagsJson],
  ["Timestamp", TimestampJson],
  ["ValueTypeName", ValueTypeJson],
  ["Value", ValueJson],
  ["ValueInput", ValueInputJson],
  ["ValueOrNull", ValueOrNullJson],
  ["Range", RangeJson],
  ["ChannelTagBody (either vocabulary)", ChannelTagBodyJson],
  ["B Kind", B.KindJson],
  ["B GetterSelectors", B.GetterSelectorsJson],
  ["B SetterSelectors", B.SetterSelectorsJson],
  ["B ServiceSelectors", B.ServiceSelectorsJson],
  ["B channel selectors of /channels/tag", B.EitherChannelSelectorsJson],
  ["B Channel", B.ChannelJson],
  ["B Service", B.ServiceJson],
  ["B ServiceTagBody", B.ServiceTagBodyJson],
  ["B ChannelTagBody", B.ChannelTagBodyJson],
  ["B GetterTagBody", B.GetterTagBodyJson],
  ["B SetterTagBody", B.SetterTagBodyJson],
  ["B SendBody", B.SendBodyJson],
  ["B FetchResults", B.FetchResultsJson],
  ["B SendResults", B.SendResultsJson],
  ["B Error", B.ChannelErrorJson],
  ["B WatchFrame", B.WatchFrameJson],
  ["B WatchEvent", B.WatchEventJson],
  ["B Scope", B.ScopeJson],
  ["A Kind", A.KindJson],
  ["A GetSelectors", A.GetSelectorsJson],
  ["A SetSelectors", A.SetSelectorsJson],
  ["A channel tag selectors", A.ChannelTagSelectorsJson],
  ["A NodeSelectors", A.NodeSelectorsJson],
  ["A Channel", A.ChannelJson],
  ["A Node", A.NodeJson],
  ["A NodeTagBody", A.NodeTagBodyJson],
  ["A ChannelTagBody", A.ChannelTagBodyJson],
  ["A PutValueBody", A.PutValueBodyJson],
  ["A FetchResults", A.FetchResultsJson],
  ["A SendResults", A.SendResultsJson],
  ["A Error", A.ChannelErrorJson],
  ["A WatchFrame", A.WatchFrameJson],
  ["A WatchEvent", A.WatchEventJson]
]

describe("every wire shape, on values its schema's arbitrary generates", () => {
  for (const [name, shape] of shapes) {
    it(`${name}: reads what it writes, and then reads back exactly what it wrote`, () => {
      const encode = Schema.encodeUnknownResult(shape)
      const decode = Schema.decodeUnknownResult(shape, parseOptions)
      const same = Schema.toEquivalence(Schema.toType(shape))
      /** JSON text, as the wire carries it. */
      const written = (value: unknown) => Result.map(encode(value), (json) => JSON.stringify(json))
      let said = 0
      const law = (x: unknown): boolean => {
        const wx = written(x)
        if (Result.isFailure(wx)) return true // nothing to say: this vocabulary has no words for x
        said++
        const y = decode(JSON.parse(wx.success))
        if (Result.isFailure(y)) return false
        const wy = written(y.success)
        if (Result.isFailure(wy)) return false
        const z = decode(JSON.parse(wy.success))
        if (Result.isFailure(z) || !same(z.success, y.success)) return false
        const wz = written(z.success)
        return Result.isSuccess(wz) && wz.success === wy.success
      }
      const result = Effect.runSync(Arbitrary.checkEffect(Arbitrary.schema(shape), law, { runs: 150, maxDiscards: 10_000, seed: 7 }))
      expect(Arbitrary.formatCheckFailure(result)).toBeUndefined()
      expect(said).toBeGreaterThan(0)
    })
  }
})
