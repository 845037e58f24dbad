import { Option, Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { ChannelError } from "../../../src/domain/ChannelError.ts"
import { ChannelId, ServiceId } from "../../../src/domain/Identifier.ts"
import type { FetchResults, SendResults } from "../../../src/domain/Outcome.ts"
import {
  channelErrorInA,
  ChannelErrorJson,
  FetchResultsJson,
  resultsInA,
  SendResultsJson
} from "../../../src/vocabulary/a/index.ts"
import { channelError, fetchResults, sendResults } from "../../arbitraries/domain.ts"
import { channelErrorJson } from "./arbitraries.ts"
import { decoded, onTheWire, rejection } from "./expectations.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

const a = ChannelId.make("getter:a@sim")
const b = ChannelId.make("getter:b@sim")
const c = ChannelId.make("getter:c@sim")

describe("channel errors (vocabulary A)", () => {
  const pairs: ReadonlyArray<readonly [ChannelError, unknown]> = [
    [{ _tag: "NoSuchService", id: ServiceId.make("service:gone@sim") }, { NoSuchNode: "service:gone@sim" }],
    [{ _tag: "NoSuchGetter", id: a }, { NoSuchGet: "getter:a@sim" }],
    [{ _tag: "NoSuchSetter", id: ChannelId.make("setter:s@sim") }, { NoSuchSet: "setter:s@sim" }],
    [{ _tag: "TypeMismatch", expected: "OnOff", got: "Unit" }, { TypeError: [] }],
    [{ _tag: "DeviceFailure", message: "timed out after 5 s" }, { InternalError: "timed out after 5 s" }]
  ]

  it.each(pairs)("writes %j as %j", (error, json) => {
    expect(ChannelErrorJson.write(error)).toEqual(json)
  })

  it("reads TypeError as a TypeMismatch whose types A does not say", () => {
    expect(decoded(decode(ChannelErrorJson, { TypeError: [] }))).toEqual({ _tag: "TypeMismatch" })
  })

  it("rejects a TypeError carrying a payload, and B's error names", () => {
    expect(rejection(decode(ChannelErrorJson, { TypeError: { expected: "OnOff", got: "Unit" } })))
      .toBe("body.TypeError: expected an empty array []")
    expect(rejection(decode(ChannelErrorJson, { NoSuchGetter: "getter:a@sim" }))).toMatch(/^body: unknown error "NoSuchGetter"/)
  })

  it("rejects an id that breaks the identifier rules", () => {
    expect(rejection(decode(ChannelErrorJson, { NoSuchNode: "" }))).toBe("body.NoSuchNode: must not be empty")
  })

  it("reads back what it writes, up to TypeError's types: decode(encode(e)) = channelErrorInA(e)", () => {
    fc.assert(fc.property(channelError, (error) => {
      expect(decoded(decode(ChannelErrorJson, onTheWire(ChannelErrorJson.write(error))))).toEqual(channelErrorInA(error))
    }))
  })

  it("writes back exactly what it reads: encode(decode(j)) = j on A's JSON", () => {
    fc.assert(fc.property(channelErrorJson, (json) => {
      expect(ChannelErrorJson.write(decoded(decode(ChannelErrorJson, json)))).toEqual(json)
    }))
  })
})

describe("get_channel_value results", () => {
  const results: FetchResults = [
    { key: a, result: Result.succeed(Option.some({ _tag: "OnOff", state: "On" })) },
    { key: b, result: Result.succeed(Option.none()) },
    { key: c, result: Result.fail({ _tag: "NoSuchGetter", id: c }) }
  ]
  const json = [
    ["getter:a@sim", { Ok: { OnOff: "On" } }],
    ["getter:b@sim", { Ok: null }],
    ["getter:c@sim", { Err: { NoSuchGet: "getter:c@sim" } }]
  ]

  it("writes [id, {\"Ok\": V}], [id, {\"Ok\": null}] when there is no value yet, [id, {\"Err\": E}]", () => {
    expect(onTheWire(FetchResultsJson.write(results))).toEqual(json)
  })

  it("writes pairs sorted by id, whatever the order given", () => {
    expect(onTheWire(FetchResultsJson.write([...results].reverse()))).toEqual(json)
  })

  it("tells a Unit value from no value", () => {
    expect(FetchResultsJson.write([{ key: a, result: Result.succeed(Option.some({ _tag: "Unit" })) }]))
      .toEqual([["getter:a@sim", { Ok: { Unit: null } }]])
  })

  it("reads the pairs back", () => {
    expect(decoded(decode(FetchResultsJson, json))).toEqual(results)
  })

  it("rejects what is not a list of [id, result] pairs, naming where", () => {
    expect(rejection(decode(FetchResultsJson, { "getter:a@sim": { Ok: null } }))).toMatch(/^body: expected an array of \[id, result\] pairs/)
    expect(rejection(decode(FetchResultsJson, [["getter:a@sim"]]))).toBe("body[0]: expected an [id, result] pair")
    expect(rejection(decode(FetchResultsJson, [["getter:a@sim", { Error: {} }]]))).toMatch(/^body\[0\]\[1\]: unknown result "Error"/)
    expect(rejection(decode(FetchResultsJson, [["getter:a@sim", { Ok: { Colour: 1 } }]]))).toMatch(/^body\[0\]\[1\]\.Ok: unknown value type/)
  })

  it("reads back what it writes, up to TypeError's types", () => {
    fc.assert(fc.property(fetchResults, (r) => {
      expect(decoded(decode(FetchResultsJson, onTheWire(FetchResultsJson.write(r))))).toEqual(resultsInA(r))
    }))
  })
})

describe("put_channel_value results", () => {
  const results: SendResults = [
    { key: ChannelId.make("setter:a@sim"), result: Result.void },
    { key: ChannelId.make("setter:b@sim"), result: Result.fail({ _tag: "TypeMismatch", expected: "OnOff", got: "Unit" }) },
    { key: ServiceId.make("service:gone@sim"), result: Result.fail({ _tag: "NoSuchService", id: ServiceId.make("service:gone@sim") }) }
  ]

  it("writes {\"Ok\": null} for a successful write and {\"Err\": E} otherwise, sorted by id", () => {
    expect(onTheWire(SendResultsJson.write(results))).toEqual([
      ["service:gone@sim", { Err: { NoSuchNode: "service:gone@sim" } }],
      ["setter:a@sim", { Ok: null }],
      ["setter:b@sim", { Err: { TypeError: [] } }]
    ])
  })

  it("rejects a success that carries a value", () => {
    expect(rejection(decode(SendResultsJson, [["setter:a@sim", { Ok: { Unit: null } }]])))
      .toMatch(/^body\[0\]\[1\]\.Ok: a write's success is \{"Ok": null}/)
  })

  it("reads back what it writes, up to TypeError's types", () => {
    fc.assert(fc.property(sendResults, (r) => {
      expect(decoded(decode(SendResultsJson, onTheWire(SendResultsJson.write(r))))).toEqual(resultsInA(r))
    }))
  })
})
