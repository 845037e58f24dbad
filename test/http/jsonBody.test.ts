import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { Option, Result } from "effect"
import { parse } from "../../src/http/body/JsonBody.ts"
import { maxBodyDepth } from "../../src/http/body/RequestLimits.ts"

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)

const messageOf = (input: Uint8Array): string => {
  const result = parse(input)
  if (Result.isSuccess(result)) throw new Error("expected a failure")
  return result.failure.message
}

describe("JsonBody.parse", () => {
  it("reads JSON, including null", () => {
    expect(parse(bytes("{\"a\":[1]}"))).toEqual(Result.succeed(Option.some({ a: [1] })))
    expect(parse(bytes("null"))).toEqual(Result.succeed(Option.some(null)))
  })

  it("reads an empty or blank body as no body", () => {
    expect(parse(bytes(""))).toEqual(Result.succeed(Option.none()))
    expect(parse(bytes(" \r\n\t"))).toEqual(Result.succeed(Option.none()))
  })

  it("says where JSON breaks, without echoing the body", () => {
    expect(messageOf(bytes("{\"a\":1"))).toMatch(/^body: invalid JSON: .* at position 6/)
    const message = messageOf(bytes("{\"secret\":}"))
    expect(message).toMatch(/^body: invalid JSON: unexpected token '}'$/)
    expect(message).not.toContain("secret")
  })

  it("refuses bytes that are not UTF-8", () => {
    expect(messageOf(new Uint8Array([0x22, 0xff, 0x22]))).toBe("body: not valid UTF-8")
  })

  // Both readers, JSON.parse and the reader of escaped text, build the whole structure before a walk
  // could refuse it: 0.8 s for 1 MiB of arrays around an escaped string. JSON.parse is called first by
  // both, and by the reader of escaped text for each escaped string, so no call means nothing was built.
  it("refuses a body nested deeper than the limit before a reader builds anything", () => {
    const tooDeep = (depth: number) => bytes("[".repeat(depth) + "\"\\n\"" + "]".repeat(depth))
    const parses = vi.spyOn(JSON, "parse")
    try {
      expect(messageOf(tooDeep(500_000))).toBe(`body: nested deeper than ${maxBodyDepth} levels`)
      expect(messageOf(tooDeep(maxBodyDepth + 1))).toBe(`body: nested deeper than ${maxBodyDepth} levels`)
      expect(parses).not.toHaveBeenCalled()
      expect(parse(tooDeep(maxBodyDepth))).toSatisfy(Result.isSuccess)
      expect(parses).toHaveBeenCalled()
    } finally {
      parses.mockRestore()
    }
  })
})
