import { Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import { ChannelId } from "../../src/domain/index.ts"
import { decodeWatchFrame, encodeWatchEvent, sniffWatchVocabulary } from "../../src/vocabulary/WatchFrame.ts"

describe("watch frames", () => {
  it("tell their vocabulary by shape: A's targets have a source, B's a select", () => {
    expect(sniffWatchVocabulary([{ source: {} }])).toBe("a")
    expect(sniffWatchVocabulary([{ select: {} }])).toBe("b")
    expect(sniffWatchVocabulary({ select: {} })).toBe("b")
    // Neither: read as B, whose message then says what a frame is.
    expect(sniffWatchVocabulary("hello")).toBe("b")
    expect(sniffWatchVocabulary([])).toBe("b")
  })

  it("read in the vocabulary given, with a message naming the place", () => {
    const a = decodeWatchFrame([{ source: { id: { Exactly: "getter:x" } }, should_watch_values: true }], "a")
    expect(Result.isSuccess(a)).toBe(true)
    const wrong = decodeWatchFrame([{ source: {} }], "b")
    expect(Result.isFailure(wrong) && wrong.failure.message).toContain("body[0]")
  })

  it("write events in each vocabulary, a refusal only in B", () => {
    const channel = ChannelId.make("getter:x")
    expect(encodeWatchEvent("a", { _tag: "ChannelAdded", channel })).toEqual(Option.some({ GetAdded: channel }))
    expect(encodeWatchEvent("b", { _tag: "ChannelAdded", channel })).toEqual(Option.some({ GetterAdded: channel }))
    const refused = { _tag: "WatchRefused", channel, error: { _tag: "DeviceFailure", message: "no" } } as const
    expect(encodeWatchEvent("a", refused)).toEqual(Option.none())
    expect(encodeWatchEvent("b", refused)).toEqual(Option.some({ InitializationError: { channel, error: { InternalError: "no" } } }))
  })
})
