import { describe, expect, it } from "vitest"
import { foldAnnotations } from "../../src/http/openapi/FoldedAnnotations.ts"

/** What FoldedAnnotations does to the schemas of the OpenAPI document, and what it leaves as it is. */
describe("foldAnnotations", () => {
  it("writes an annotation-only allOf member on the schema it annotates, at any depth", () => {
    const field = { anyOf: [{ $ref: "#/components/schemas/ChannelId" }, { type: "null" }], allOf: [{ description: "The id." }] }
    expect(foldAnnotations({ type: "object", properties: { id: field }, items: [field] })).toEqual({
      type: "object",
      properties: { id: { anyOf: [{ $ref: "#/components/schemas/ChannelId" }, { type: "null" }], description: "The id." } },
      items: [{ anyOf: [{ $ref: "#/components/schemas/ChannelId" }, { type: "null" }], description: "The id." }]
    })
  })

  it("makes a lone member the schema, with the annotations", () => {
    expect(foldAnnotations({ allOf: [{ $ref: "#/components/schemas/Tags" }, { description: "Tags." }] }))
      .toEqual({ $ref: "#/components/schemas/Tags", description: "Tags." })
  })

  it("keeps the allOf of a schema that constrains, or of several members; the schema's own annotations win", () => {
    const closed = { properties: { a: {} }, allOf: [{ additionalProperties: false }, { description: "note" }] }
    expect(foldAnnotations(closed)).toEqual({ properties: { a: {} }, description: "note", allOf: [{ additionalProperties: false }] })
    const both = { description: "own", allOf: [{ $ref: "#/a" }, { $ref: "#/b" }, { description: "note", title: "T" }] }
    expect(foldAnnotations(both)).toEqual({ description: "own", title: "T", allOf: [{ $ref: "#/a" }, { $ref: "#/b" }] })
  })

  it("leaves data alone: examples, defaults, constants and enums", () => {
    const schema = { examples: [{ allOf: [{ description: "data" }] }], const: { allOf: [{ description: "data" }] } }
    expect(foldAnnotations(schema)).toEqual(schema)
  })
})
