import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type ChannelError, ChannelId, ServiceId } from "../../../src/domain/index.ts"
import { ChannelErrorJson } from "../../../src/vocabulary/b/index.ts"
import { channelError } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "../common/expectations.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

describe("per-channel errors of vocabulary B (docs/reference.md §6.4)", () => {
  const examples: ReadonlyArray<readonly [unknown, ChannelError]> = [
    [{ NoSuchService: "service:x@sim" }, { _tag: "NoSuchService", id: ServiceId.make("service:x@sim") }],
    [{ NoSuchGetter: "getter:x@sim" }, { _tag: "NoSuchGetter", id: ChannelId.make("getter:x@sim") }],
    [{ NoSuchSetter: "setter:x@sim" }, { _tag: "NoSuchSetter", id: ChannelId.make("setter:x@sim") }],
    [{ TypeError: { expected: "OnOff", got: "Unit" } }, { _tag: "TypeMismatch", expected: "OnOff", got: "Unit" }],
    [{ InternalError: "device timed out" }, { _tag: "DeviceFailure", message: "device timed out" }]
  ]
  for (const [json, model] of examples) {
    it(`${Object.keys(json as object)[0]} is written ${JSON.stringify(json)} and read back`, () => {
      expect(ChannelErrorJson.write(model)).toEqual(json)
      expect(decoded(decode(ChannelErrorJson, json))).toEqual(model)
    })
  }

  it("TypeError names value types, not kinds", () => {
    expect(rejection(decode(ChannelErrorJson, { TypeError: { expected: "LightColor", got: "Unit" } }, ["x"]))).toMatch(
      /^body\.x\.TypeError\.expected: unknown value type "LightColor"/
    )
  })

  it("refuses an unknown error", () => {
    expect(rejection(decode(ChannelErrorJson, { NoSuchGet: "x" }))).toBe(
      "body: unknown error \"NoSuchGet\" (known: NoSuchService, NoSuchGetter, NoSuchSetter, TypeError, InternalError)"
    )
  })

  it("decode(encode(e)) = e", () => {
    fc.assert(fc.property(channelError, (e) => {
      expect(decoded(decode(ChannelErrorJson, onTheWire(ChannelErrorJson.write(e))))).toEqual(e)
    }))
  })
})
