import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ChannelId, type WatchEvent } from "../../../src/domain/index.ts"
import { WatchEventJson } from "../../../src/vocabulary/b/index.ts"
import { watchEvent } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "../common/expectations.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

const t = ChannelId.make("getter:t@sim")

describe("watch events of vocabulary B (docs/reference.md §7)", () => {
  const examples: ReadonlyArray<readonly [unknown, WatchEvent]> = [
    [
      { Value: { from: "getter:t@sim", value: { Temperature: { C: 21.5 } } } },
      { _tag: "ValueChanged", channel: t, value: { _tag: "Temperature", unit: "C", degrees: 21.5 } }
    ],
    [{ GetterAdded: "getter:t@sim" }, { _tag: "ChannelAdded", channel: t }],
    [{ GetterRemoved: "getter:t@sim" }, { _tag: "ChannelRemoved", channel: t }],
    [
      { InitializationError: { channel: "getter:t@sim", error: { InternalError: "thresholds only" } } },
      { _tag: "WatchRefused", channel: t, error: { _tag: "DeviceFailure", message: "thresholds only" } }
    ]
  ]
  for (const [json, model] of examples) {
    it(`${Object.keys(json as object)[0]} is written ${JSON.stringify(json)} and read back`, () => {
      expect(WatchEventJson.write(model)).toEqual(json)
      expect(decoded(decode(WatchEventJson, json))).toEqual(model)
    })
  }

  it("refuses vocabulary A's event names", () => {
    expect(rejection(decode(WatchEventJson, { GetAdded: "x" }))).toBe(
      "body: unknown event \"GetAdded\" (known: Value, GetterAdded, GetterRemoved, InitializationError)"
    )
  })

  it("decode(encode(e)) = e", () => {
    fc.assert(fc.property(watchEvent, (e) => {
      expect(decoded(decode(WatchEventJson, onTheWire(WatchEventJson.write(e))))).toEqual(e)
    }))
  })
})
