import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { builtinKind, type Kind } from "../../../src/domain/Kind.ts"
import { KindJson } from "../../../src/vocabulary/a/index.ts"
import { kind } from "../../arbitraries/domain.ts"
import { decoded, onTheWire, rejection } from "./expectations.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

/** The kinds of docs/reference.md §3, written out here so that a kind missing from the domain is noticed. */
const wireKinds = [
  "Ready", "TakeSnapshot", "OnOff", "OpenClosed", "DoorLocked", "LightColor", "CurrentTime", "CurrentTimeOfDay",
  "RemainingTime", "Countdown", "CountEveryInterval", "Thermostat", "ActualTemperature", "OvenTemperature",
  "Username", "Password", "Log"
]

describe("Kind (vocabulary A)", () => {
  it("reads a built-in kind as its name holding an empty array", () => {
    expect(decoded(decode(KindJson, { OnOff: [] }))).toEqual(builtinKind("OnOff"))
  })

  it.each(wireKinds)("knows the kind %s of docs/reference.md §3, both ways", (name) => {
    const json = { [name]: [] }
    const kind = decoded(decode(KindJson, json))
    expect(kind).toEqual({ _tag: "Builtin", name })
    expect(KindJson.write(kind)).toEqual(json)
  })

  it("reads an Extension with vendor, adapter, kind and value type", () => {
    const json = { Extension: { vendor: "acme", adapter: "zigbee@acme", kind: "dimmer", type: "ExtNumeric" } }
    const expected: Kind = { _tag: "Extension", vendor: "acme", adapter: "zigbee@acme", kind: "dimmer", type: "ExtNumeric" }
    expect(decoded(decode(KindJson, json))).toEqual(expected)
    expect(KindJson.write(expected)).toEqual(json)
  })

  it("rejects an unknown kind, naming it and where it stands", () => {
    expect(rejection(decode(KindJson, { Toaster: [] }, [0, "kind", "Exactly"])))
      .toBe(`body[0].kind.Exactly: unknown kind "Toaster"`)
  })

  it("rejects a kind written the vocabulary B way, as a bare string", () => {
    expect(rejection(decode(KindJson, "OnOff"))).toMatch(/^body: expected a kind such as \{"OnOff": \[\]\}/)
  })

  it("rejects a built-in kind that holds anything but an empty array", () => {
    expect(rejection(decode(KindJson, { OnOff: null }))).toBe("body.OnOff: expected an empty array []")
    expect(rejection(decode(KindJson, { OnOff: ["x"] }))).toBe("body.OnOff: expected an empty array []")
  })

  it("rejects an object naming two kinds", () => {
    expect(rejection(decode(KindJson, { OnOff: [], Ready: [] }))).toMatch(/^body: expected a kind .*2 keys/)
  })

  it("rejects an Extension with an unknown value type, a missing field or an unknown field", () => {
    const base = { vendor: "v", adapter: "a", kind: "k", type: "Number" }
    expect(rejection(decode(KindJson, { Extension: base }))).toMatch(/^body\.Extension\.type: unknown value type "Number"/)
    expect(rejection(decode(KindJson, { Extension: { vendor: "v", adapter: "a", type: "Unit" } })))
      .toBe(`body.Extension: missing field "kind"`)
    expect(rejection(decode(KindJson, { Extension: { ...base, type: "Unit", model: "x" } })))
      .toMatch(/^body\.Extension: unknown field "model"/)
    expect(rejection(decode(KindJson, { Extension: { ...base, type: "Unit", vendor: 3 } })))
      .toMatch(/^body\.Extension\.vendor: expected a string/)
  })

  it("reads back what it writes: decode(encode(k)) = k", () => {
    fc.assert(fc.property(kind, (k) => {
      expect(decoded(decode(KindJson, onTheWire(KindJson.write(k))))).toEqual(k)
    }))
  })
})
