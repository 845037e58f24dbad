import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { builtinKindNames } from "../../../src/domain/index.ts"
import { KindJson } from "../../../src/vocabulary/b/index.ts"
import { kind } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "../common/expectations.ts"
import { decode as decodeShape } from "../../../src/vocabulary/common/WireIssue.ts"

const decode = (json: unknown) => decodeShape(KindJson, json, [0, "kind"])

describe("kinds in vocabulary B (docs/reference.md §3)", () => {
  it("a built-in kind is its bare name", () => {
    expect(decoded(decode("OnOff"))).toEqual({ _tag: "Builtin", name: "OnOff" })
    expect(KindJson.write({ _tag: "Builtin", name: "OnOff" })).toBe("OnOff")
    for (const name of builtinKindNames) expect(decoded(decode(name))).toEqual({ _tag: "Builtin", name })
  })

  it("an Extension is the object {vendor, adapter, kind, type}", () => {
    const json = { vendor: "acme", adapter: "toaster@acme.org", kind: "crispness", type: "ExtNumeric" }
    const model = { _tag: "Extension", vendor: "acme", adapter: "toaster@acme.org", kind: "crispness", type: "ExtNumeric" }
    expect(decoded(decode(json))).toEqual(model)
    expect(KindJson.write(decoded(decode(json)))).toEqual(json)
  })

  it("refuses an unknown kind, naming it", () => {
    expect(rejection(decode("Toaster"))).toMatch(/^body\[0\]\.kind: unknown kind "Toaster" \(known: Ready, TakeSnapshot, /)
    expect(rejection(decode("onoff"))).toContain("unknown kind \"onoff\"")
  })

  it("refuses an extension with a missing field, an unknown field or an unknown type", () => {
    expect(rejection(decode({ vendor: "v", adapter: "a", kind: "k" }))).toBe("body[0].kind: missing field \"type\"")
    expect(rejection(decode({ vendor: "v", adapter: "a", kind: "k", type: "Unit", colour: "red" }))).toBe(
      "body[0].kind: unknown field \"colour\" (an extension kind takes vendor, adapter, kind, type)"
    )
    expect(rejection(decode({ vendor: "v", adapter: "a", kind: "k", type: "Toast" }))).toMatch(
      /^body\[0\]\.kind\.type: unknown value type "Toast"/
    )
  })

  it("refuses vocabulary A's form", () => {
    expect(rejection(decode({ OnOff: [] }))).toBe(
      "body[0].kind: expected a kind such as \"OnOff\" or {\"vendor\", \"adapter\", \"kind\", \"type\"}, got vocabulary A's form"
    )
    expect(rejection(decode({ Extension: { vendor: "v", adapter: "a", kind: "k", type: "Unit" } }))).toContain(
      "got vocabulary A's form"
    )
    expect(rejection(decode(7))).toBe("body[0].kind: expected a kind such as \"OnOff\", got 7")
  })

  it("decode(encode(k)) = k", () => {
    fc.assert(fc.property(kind, (k) => {
      expect(decoded(decode(onTheWire(KindJson.write(k))))).toEqual(k)
    }))
  })
})
