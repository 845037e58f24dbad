import * as fc from "fast-check"
import { Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import { ChannelId, type FetchResults, type SendResults, ServiceId } from "../../../src/domain/index.ts"
import {
  FetchResultsJson,
  SendResultsJson
} from "../../../src/vocabulary/b/index.ts"
import { fetchResults, sendResults } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "../common/expectations.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

const a = ChannelId.make("getter:a@sim")
const b = ChannelId.make("getter:b@sim")
const c = ChannelId.make("getter:c@sim")

describe("result maps of vocabulary B (docs/reference.md §6.4)", () => {
  it("fetch: the value, null for no value yet, or {\"Error\": E}, keys sorted", () => {
    const results: FetchResults = [
      { key: c, result: Result.fail({ _tag: "NoSuchGetter", id: c }) },
      { key: a, result: Result.succeed(Option.some({ _tag: "OnOff", state: "On" })) },
      { key: b, result: Result.succeed(Option.none()) }
    ]
    const json = FetchResultsJson.write(results)
    expect(json).toEqual({
      "getter:a@sim": { OnOff: "On" },
      "getter:b@sim": null,
      "getter:c@sim": { Error: { NoSuchGetter: "getter:c@sim" } }
    })
    expect(Object.keys(json as object)).toEqual(["getter:a@sim", "getter:b@sim", "getter:c@sim"])
    expect(decoded(decode(FetchResultsJson, json))).toEqual([...results].sort((x, y) => (x.key < y.key ? -1 : 1)))
  })

  it("fetch: a Unit value is {\"Unit\": null}, never confused with no value", () => {
    const json = FetchResultsJson.write([{ key: a, result: Result.succeed(Option.some({ _tag: "Unit" })) }])
    expect(json).toEqual({ "getter:a@sim": { Unit: null } })
  })

  it("send: null on success or {\"Error\": E}; an unknown service is keyed by its id", () => {
    const hall = ServiceId.make("service:hall@sim")
    const results: SendResults = [
      { key: a, result: Result.void },
      { key: b, result: Result.fail({ _tag: "TypeMismatch", expected: "OnOff", got: "Unit" }) },
      { key: hall, result: Result.fail({ _tag: "NoSuchService", id: hall }) }
    ]
    const json = SendResultsJson.write(results)
    expect(json).toEqual({
      "getter:a@sim": null,
      "getter:b@sim": { Error: { TypeError: { expected: "OnOff", got: "Unit" } } },
      "service:hall@sim": { Error: { NoSuchService: "service:hall@sim" } }
    })
    expect(decoded(decode(SendResultsJson, json))).toEqual(results)
  })

  it("refuses a send result that is neither null nor an error, and a bad key", () => {
    expect(rejection(decode(SendResultsJson, { x: { OnOff: "On" } }))).toBe(
      "body.x: expected null (sent) or {\"Error\": E}, got an object"
    )
    expect(rejection(decode(FetchResultsJson, { "": null }))).toBe("body[\"\"]: must not be empty")
    expect(rejection(decode(FetchResultsJson, { x: { Error: { Oops: 1 } } }))).toMatch(/^body\.x\.Error: unknown error "Oops"/)
  })

  it("decode(encode(r)) = r, for fetch and send", () => {
    fc.assert(fc.property(fetchResults, (r) => {
      expect(decoded(decode(FetchResultsJson, onTheWire(FetchResultsJson.write(r))))).toEqual(r)
    }))
    fc.assert(fc.property(sendResults, (r) => {
      expect(decoded(decode(SendResultsJson, onTheWire(SendResultsJson.write(r))))).toEqual(r)
    }))
  })
})
