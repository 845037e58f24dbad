import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { encodeTimestamp, TimestampJson } from "../../../src/vocabulary/common/TimestampJson.ts"
import { timestamp } from "../../arbitraries/domain.ts"
import { decoded, rejection } from "./expectations.ts"
import { decode as decodeShape } from "../../../src/vocabulary/common/WireIssue.ts"

const decode = (json: unknown) => decodeShape(TimestampJson, json, ["updated"])

describe("timestamps on the wire", () => {
  it("are written in UTC with milliseconds and +00:00", () => {
    expect(encodeTimestamp(Date.UTC(2026, 10, 22, 6))).toBe("2026-11-22T06:00:00.000+00:00")
    expect(encodeTimestamp(-1)).toBe("1969-12-31T23:59:59.999+00:00")
  })

  it("are read from any RFC 3339 offset: Z, +hh:mm, -hh:mm", () => {
    const expected = Date.UTC(2026, 10, 22, 6)
    for (
      const text of [
        "2026-11-22T06:00:00Z",
        "2026-11-22t06:00:00z",
        "2026-11-22T06:00:00.000+00:00",
        "2026-11-22T07:30:00+01:30",
        "2026-11-21T22:00:00-08:00",
        "2026-11-22 06:00:00.0000001Z",
        "2026-11-22T06:00:00.000000000000000001Z"
      ]
    ) expect(decoded(decode(text))).toBe(expected)
  })

  it("round fractions finer than a millisecond", () => {
    expect(decoded(decode("2026-11-22T06:00:00.0006Z"))).toBe(Date.UTC(2026, 10, 22, 6) + 1)
    expect(decoded(decode("2026-11-22T06:00:00.9996Z"))).toBe(Date.UTC(2026, 10, 22, 6, 0, 1))
  })

  it("agree with Date on every date Date can write", () => {
    fc.assert(fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
      expect(encodeTimestamp(ms)).toBe(new Date(ms).toISOString().replace("Z", "+00:00"))
    }))
  })

  it("read back what they write, for every safe integer (years beyond 9999 as ±YYYYYY)", () => {
    expect(encodeTimestamp(253_402_300_800_000)).toBe("+010000-01-01T00:00:00.000+00:00")
    fc.assert(fc.property(timestamp, (ms) => {
      expect(decoded(decode(encodeTimestamp(ms)))).toBe(ms)
    }))
  })

  it("refuse a time without an offset, an impossible date, and what is not a string", () => {
    expect(rejection(decode("2026-11-22T06:00:00"))).toBe(
      "body.updated: expected an RFC 3339 timestamp with an offset, such as \"2026-11-22T06:00:00.000+00:00\""
    )
    expect(rejection(decode("2026-02-29T06:00:00Z"))).toBe("body.updated: no such date and time: \"2026-02-29T06:00:00Z\"")
    expect(decoded(decode("2028-02-29T06:00:00Z"))).toBe(Date.UTC(2028, 1, 29, 6))
    expect(rejection(decode("2026-11-22T24:00:00Z"))).toContain("no such date and time")
    expect(rejection(decode(1_795_413_600_000))).toBe(
      "body.updated: expected a timestamp such as \"2026-11-22T06:00:00.000+00:00\", got 1795413600000"
    )
  })

  it("refuse instants beyond the safe integer milliseconds", () => {
    expect(rejection(decode("+999999-01-01T00:00:00Z"))).toContain("timestamp out of range")
  })
})
