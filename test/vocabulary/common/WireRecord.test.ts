import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"
import { fieldsOf, noItems, partialWireRecord, wireRecord } from "../../../src/vocabulary/common/WireRecord.ts"
import type { WirePart } from "../../../src/vocabulary/common/WireShape.ts"
import { decoded, rejection } from "./expectations.ts"

/** A model of every kind of field: renamed, optional, spread over two model fields, and a constant. */
const Lamp = Schema.Struct({
  kind: Schema.Literal("Lamp"),
  name: Schema.String,
  tags: Schema.Array(Schema.String),
  brightness: Schema.Number,
  colour: Schema.String
})
type Lamp = typeof Lamp.Type

const lamp = fieldsOf(Lamp)

/** `{"b": brightness, "c": colour}` in one wire field. */
const Look: WirePart<Pick<Lamp, "brightness" | "colour">, { readonly b: number; readonly c: string }> = {
  wire: Schema.Struct({ b: Schema.Number, c: Schema.String }),
  read: (json) => ({ brightness: json.b, colour: json.c }),
  write: (look) => ({ b: look.brightness, c: look.colour })
}

const LampJson = wireRecord(Lamp, {
  display_name: lamp.field("name", Schema.String, "What the lamp is called."),
  tags: lamp.optional("tags", Schema.Array(Schema.String), noItems),
  look: lamp.spread(["brightness", "colour"], Look)
}, { constants: { kind: "Lamp" }, annotations: { expected: "a lamp", identifier: "Lamp" } })

describe("a wire record, from the table of its fields", () => {
  it("reads each wire field into its model field, an absent optional one as its absence, and the constants", () => {
    expect(decoded(decode(LampJson, { display_name: "desk", look: { b: 0.5, c: "red" } }))).toEqual({
      kind: "Lamp",
      name: "desk",
      tags: [],
      brightness: 0.5,
      colour: "red"
    })
  })

  it("writes the fields in the table's order, leaving out what an optional field leaves out", () => {
    const written = LampJson.write({ kind: "Lamp", name: "desk", tags: [], brightness: 1, colour: "blue" })
    expect(JSON.stringify(written)).toBe(`{"display_name":"desk","look":{"b":1,"c":"blue"}}`)
    expect(Object.keys(LampJson.write({ kind: "Lamp", name: "desk", tags: ["x"], brightness: 1, colour: "blue" })))
      .toEqual(["display_name", "tags", "look"])
  })

  it("writes each value into an object of its own, whatever was written before", () => {
    const desk = LampJson.write({ kind: "Lamp", name: "desk", tags: ["x"], brightness: 1, colour: "blue" })
    const hall = LampJson.write({ kind: "Lamp", name: "hall", tags: [], brightness: 0, colour: "red" })
    expect(JSON.stringify(desk)).toBe(`{"display_name":"desk","tags":["x"],"look":{"b":1,"c":"blue"}}`)
    expect(JSON.stringify(hall)).toBe(`{"display_name":"hall","look":{"b":0,"c":"red"}}`)
  })

  it("checks the JSON with a struct of its wire fields, each description on its key", () => {
    expect(rejection(decode(LampJson, { display_name: "desk", look: { b: 1, c: "red" }, name: "x" })))
      .toBe(`body: unknown field "name" (a lamp takes display_name, tags, look)`)
    expect(rejection(decode(LampJson, { look: { b: 1, c: "red" } }))).toBe(`body: missing field "display_name"`)
    const [displayName] = LampJson.wire.ast._tag === "Objects" ? LampJson.wire.ast.propertySignatures : []
    expect(displayName?.type.context?.annotations?.description).toBe("What the lamp is called.")
  })

  it("with a field that cannot always be written, answers the reason of the first one that cannot", () => {
    const Pair = Schema.Struct({ left: Schema.String, right: Schema.String })
    const pair = fieldsOf(Pair)
    const side = (name: string): { readonly wire: typeof Schema.String; readonly read: (json: string) => string; readonly write: (value: string) => Result.Result<string, string> } => ({
      wire: Schema.String,
      read: (json) => json,
      write: (value) => (value === "" ? Result.fail(`no ${name}`) : Result.succeed(value))
    })
    const PairJson = partialWireRecord(Pair, { l: pair.partial("left", side("left")), r: pair.partial("right", side("right")) }, {})
    expect(PairJson.write({ left: "a", right: "b" })).toEqual(Result.succeed({ l: "a", r: "b" }))
    expect(PairJson.write({ left: "", right: "" })).toEqual(Result.fail("no left"))
    expect(PairJson.write({ left: "a", right: "" })).toEqual(Result.fail("no right"))
  })
})
