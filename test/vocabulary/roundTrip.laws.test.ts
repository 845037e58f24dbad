import { Arbitrary, Effect, Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as A from "../../src/vocabulary/a/index.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import { decodeChannelTagBody } from "../../src/vocabulary/ChannelTagBody.ts"
import { AdapterIdJson, ChannelIdJson, ServiceIdJson, TagsJson } from "../../src/vocabulary/common/IdentifierJson.ts"
import { RangeJson } from "../../src/vocabulary/common/RangeJson.ts"
import { TimestampJson } from "../../src/vocabulary/common/TimestampJson.ts"
import { ValueInputJson, ValueJson, ValueOrNullJson, ValueTypeJson } from "../../src/vocabulary/common/ValueJson.ts"
import { decodeWith } from "../../src/vocabulary/common/WireIssue.ts"
import { type PartialWireShape, plain, type Wire, type WireShape, wireShape } from "../../src/vocabulary/common/WireShape.ts"
import { TagRequest } from "../../src/domain/Request.ts"
import { ChannelSelector } from "../../src/domain/Selector.ts"

/**
 * The round-trip law of every wire shape, derived from the shape's model: its arbitrary generates
 * model values `x`, any of them; what a vocabulary writes of `x` reads, as `y = decode(encode(x))` (it may
 * forget what it has no words for, and it reads in canonical form: tags sorted, durations in
 * milliseconds, lists in id order). On such values, the values the gateway holds,
 *
 *   decode(encode(y)) = y      and      encode(decode(encode(y))) = encode(y)
 *
 * over JSON text, as on the wire. A value a vocabulary cannot say at all (a partial shape's write fails) is skipped.
 */
interface Law {
  readonly name: string
  /** The model's schema: its arbitrary generates `x`, its equivalence compares what is read. */
  readonly model: Schema.Codec<unknown, unknown>
  readonly decode: (json: unknown) => Result.Result<unknown, unknown>
  /** The JSON, or why the vocabulary has no words for the value. */
  readonly encode: (value: unknown) => Result.Result<unknown, string>
}

/**
 * What a shape writes of `value`, if the gateway could hold it: the model's arbitrary also makes values no
 * part of the gateway builds (a range whose bounds differ in type, a service holding another's channel),
 * which the wire schema refuses; they are skipped like the values a vocabulary has no words for.
 */
const heldWritten = <W>(wire: Wire<W>, written: Result.Result<W, string>): Result.Result<W, string> =>
  Result.filterOrFail(written, Schema.is(wire), () => "not a value the gateway holds")

// The model side is erased to `unknown`: the laws hold of any shape alike.
const total = <T, W>(name: string, shape: WireShape<T, W>): Law => ({
  name,
  model: shape.model as Schema.Codec<unknown, unknown>,
  decode: decodeWith(shape),
  encode: (value) => heldWritten(shape.wire, Result.succeed(shape.write(value as T)))
})

const partial = <T, W>(name: string, shape: PartialWireShape<T, W>): Law => ({
  name,
  model: shape.model as Schema.Codec<unknown, unknown>,
  decode: decodeWith(shape),
  encode: (value) => heldWritten(shape.wire, shape.write(value as T))
})

const identifier = (name: string, schema: Schema.Codec<string, string>): Law => total(name, wireShape(plain(schema), schema))

const channelTagBody: Law = {
  name: "ChannelTagBody (either vocabulary)",
  model: TagRequest(ChannelSelector) as Schema.Codec<unknown, unknown>,
  decode: (json) => decodeChannelTagBody(json, undefined),
  // What B cannot write (a pinned mechanism), A may.
  encode: (value) => {
    const request = value as TagRequest<ChannelSelector>
    const asB = B.ChannelTagBodyJson.write(request)
    return Result.isSuccess(asB) ? asB : A.ChannelTagBodyJson.write(request)
  }
}

const laws: ReadonlyArray<Law> = [
  identifier("ChannelId", ChannelIdJson),
  identifier("ServiceId", ServiceIdJson),
  identifier("AdapterId", AdapterIdJson),
  total("Tags", TagsJson),
  total("Timestamp", TimestampJson),
  total("ValueTypeName", wireShape(plain(ValueTypeJson), ValueTypeJson)),
  total("Value", ValueJson),
  total("ValueInput", ValueInputJson),
  total("ValueOrNull", ValueOrNullJson),
  total("Range", RangeJson),
  channelTagBody,
  total("B Kind", B.KindJson),
  total("B GetterSelectors", B.GetterSelectorsJson),
  total("B SetterSelectors", B.SetterSelectorsJson),
  total("B ServiceSelectors", B.ServiceSelectorsJson),
  partial("B channel selectors of /channels/tag", B.EitherChannelSelectorsJson),
  total("B Channel", B.ChannelJson),
  total("B Service", B.ServiceJson),
  total("B ServiceTagBody", B.ServiceTagBodyJson),
  partial("B ChannelTagBody", B.ChannelTagBodyJson),
  total("B GetterTagBody", B.GetterTagBodyJson),
  total("B SetterTagBody", B.SetterTagBodyJson),
  total("B SendBody", B.SendBodyJson),
  total("B FetchResults", B.FetchResultsJson),
  total("B SendResults", B.SendResultsJson),
  total("B Error", B.ChannelErrorJson),
  partial("B WatchFrame", B.WatchFrameJson),
  total("B WatchEvent", B.WatchEventJson),
  partial("B Scope", B.ScopeJson),
  total("A Kind", A.KindJson),
  partial("A GetSelectors", A.GetSelectorsJson),
  partial("A SetSelectors", A.SetSelectorsJson),
  partial("A channel tag selectors", A.ChannelTagSelectorsJson),
  partial("A NodeSelectors", A.NodeSelectorsJson),
  total("A Channel", A.ChannelJson),
  total("A Node", A.NodeJson),
  partial("A NodeTagBody", A.NodeTagBodyJson),
  partial("A ChannelTagBody", A.ChannelTagBodyJson),
  partial("A PutValueBody", A.PutValueBodyJson),
  total("A FetchResults", A.FetchResultsJson),
  total("A SendResults", A.SendResultsJson),
  total("A Error", A.ChannelErrorJson),
  partial("A WatchFrame", A.WatchFrameJson),
  total("A WatchEvent", A.WatchEventJson)
]

describe("every wire shape, on values its model's arbitrary generates", () => {
  for (const { name, model, decode, encode } of laws) {
    it(`${name}: reads what it writes, and then reads back exactly what it wrote`, () => {
      const same = Schema.toEquivalence(Schema.toType(model))
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
      const result = Effect.runSync(Arbitrary.checkEffect(Arbitrary.schema(model), law, { runs: 150, maxDiscards: 10_000, seed: 7 }))
      expect(Arbitrary.formatCheckFailure(result)).toBeUndefined()
      expect(said).toBeGreaterThan(0)
    })
  }
})
