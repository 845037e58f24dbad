import { describe, expect, it } from "vitest"
import { withoutDocumentationTexts } from "../../scripts/withoutDocumentation.ts"

/** The dashboard's build step that empties the API's documentation texts (scripts/withoutDocumentation.ts). */
describe("the dashboard's bundles without the documentation texts", () => {
  it("empties descriptions, summaries, an alias's why and a route's error texts, keeping each object's shape", () => {
    const source = [
      `const a = Schema.String.annotate({ expected: "a name", description: "What it is " + \`for.\` })`,
      `const route = endpoint({ summary: "List tokens", why: 'Browsers.', errors: { "403": "Not yours." }, path: "/api/v1/tokens" })`
    ].join("\n")
    expect(withoutDocumentationTexts(source)).toBe([
      `const a = Schema.String.annotate({ expected: "a name", description: "" })`,
      `const route = endpoint({ summary: "", why: "", errors: { "403": "" }, path: "/api/v1/tokens" })`
    ].join("\n"))
  })

  it("empties the description a wire field, a tag body or a request body is given last, and nothing else of the call", () => {
    const source = `x.field("updated", Timestamp, "When it changed."); tagBody("Body", "Tags them."); writeBody(B, "The body."); x.field("id", IdJson)`
    expect(withoutDocumentationTexts(source)).toBe(`x.field("updated", Timestamp, ""); tagBody("Body", ""); writeBody(B, ""); x.field("id", IdJson)`)
  })

  it("empties a documenting property whatever makes its value, and what it holds with it", () => {
    const source = [
      "const t = { description: `The ${thing}s and the tags.`, summary: (l: Limits) => ({ description: `at most ${l.n}` }) }",
      `const u = { description: roles[role].description + matchAll, message: "must be between 0 and 1" }`
    ].join("\n")
    expect(withoutDocumentationTexts(source)).toBe([
      `const t = { description: "", summary: "" }`,
      `const u = { description: "", message: "must be between 0 and 1" }`
    ].join("\n"))
  })

  it("keeps other properties and calls, a shorthand or destructured description, and texts made from values given to calls", () => {
    const source = [
      `fail("the body is not JSON"); const { description, why: reason } = options`,
      "const body = { schema, description, read }; writeBody(B, `The ${thing}s.`)"
    ].join("\n")
    expect(withoutDocumentationTexts(source)).toBe(source)
  })
})
