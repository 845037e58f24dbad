import { Option } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ChannelId } from "../../../src/domain/Identifier.ts"
import type { WatchEvent } from "../../../src/domain/Watch.ts"
import { encodeWatchEvent, WatchEventJson } from "../../../src/vocabulary/a/index.ts"
import { channelError, channelId, watchEvent } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "./expectations.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

const lamp = ChannelId.make("getter:lamp@sim")

describe("watch events (vocabulary A)", () => {
  const pairs: ReadonlyArray<readonly [WatchEvent, unknown]> = [
    [{ _tag: "ValueChanged", channel: lamp, value: { _tag: "OnOff", state: "On" } }, {
      Value: { from: "getter:lamp@sim", value: { OnOff: "On" } }
    }],
    [{ _tag: "ChannelAdded", channel: lamp }, { GetAdded: "getter:lamp@sim" }],
    [{ _tag: "ChannelRemoved", channel: lamp }, { GetRemoved: "getter:lamp@sim" }]
  ]

  it.each(pairs)("writes %j as %j and reads it back", (event, json) => {
    expect(onTheWire(Option.getOrUndefined(encodeWatchEvent(event)))).toEqual(json)
    expect(decoded(decode(WatchEventJson, json))).toEqual(event)
  })

  it("sends nothing for a refused watch: A has no such event", () => {
    fc.assert(fc.property(channelId, channelError, (channel, error) => {
      expect(encodeWatchEvent({ _tag: "WatchRefused", channel, error })).toEqual(Option.none())
    }))
  })

  it("rejects B's event names and a Value without its value, naming what is wrong", () => {
    expect(rejection(decode(WatchEventJson, { GetterAdded: "getter:lamp@sim" }))).toMatch(/^body: unknown event "GetterAdded"/)
    expect(rejection(decode(WatchEventJson, { Value: { from: "getter:lamp@sim" } }))).toBe(`body.Value: missing field "value"`)
    expect(rejection(decode(WatchEventJson, { Value: { from: "", value: null } }))).toBe("body.Value.from: must not be empty")
  })

  it("reads back every event it writes: decode(encode(e)) = e", () => {
    fc.assert(fc.property(watchEvent, (event) => {
      Option.match(encodeWatchEvent(event), {
        onNone: () => expect(event._tag).toBe("WatchRefused"),
        onSome: (json) => expect(decoded(decode(WatchEventJson, onTheWire(json)))).toEqual(event)
      })
    }))
  })
})
