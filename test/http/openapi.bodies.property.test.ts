import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { Arbitrary, Effect, Result, Schema } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { openApiDocument } from "../../src/http/openapi/OpenApiDocument.ts"
import { routes } from "../../src/main.ts"
import { decodeChannelTagBody } from "../../src/vocabulary/ChannelTagBody.ts"
import { decodeWith } from "../../src/vocabulary/common/WireIssue.ts"
import { plain } from "../../src/vocabulary/common/WireShape.ts"

/**
 * The published document says what the decoders read, for every route that takes a body: a body the
 * route's decoder accepts validates against the document, and a body it refuses for its shape (a
 * missing or unknown field, a value of another JSON type, an unknown name, an identifier that breaks
 * docs/reference.md §1) is refused by the document too. Bodies are valid ones generated from the route's own
 * wire schema, and the same with one such defect at a random place. The document is checked by an
 * independent JSON Schema validator (Ajv, draft 2020-12, formats on).
 */

const document = openApiDocument(routes)

const ajv = new Ajv2020.default({ strict: false, allErrors: false })
addFormats.default(ajv)

/**
 * The document's paths and components, added to ajv once: each body's schema compiled with a copy of the
 * components compiled every component again for every route (most of this file's time).
 */
ajv.addSchema({ $id: "openapi", paths: document.paths, components: document.components })

/** A JSON pointer's escape of one key. */
const pointerKey = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1")

/** A validator of one route's request body, its `$ref`s resolved in the document's components. */
const validatorOf = (path: string, method: string) => {
  const at = ["paths", path, method.toLowerCase(), "requestBody", "content", "application/json", "schema"].map(pointerKey).join("/")
  const validate = ajv.getSchema(`openapi#/${at}`)
  if (validate === undefined) throw new Error(`${method} ${path}: no request body in the document`)
  return (json: unknown): boolean => validate(json) === true
}

/** What the route reads its body with: the shared channel tag path sniffs the vocabulary. */
const decoderOf = (path: string, schema: Schema.Top & Schema.Decoder<unknown>) =>
  path === "/api/v1/channels/tag" ? (json: unknown) => decodeChannelTagBody(json, undefined) : decodeWith(plain(schema))

/** Where a defect can go: every place in a JSON document. */
type Place = ReadonlyArray<string | number>

const placesIn = (json: unknown, at: Place = []): ReadonlyArray<Place> => {
  if (Array.isArray(json)) return [at, ...json.flatMap((item, i) => placesIn(item, [...at, i]))]
  if (json !== null && typeof json === "object") {
    return [at, ...Object.entries(json).flatMap(([key, value]) => placesIn(value, [...at, key]))]
  }
  return [at]
}

/** `json` with `f` applied at `place`. */
const updateAt = (json: unknown, place: Place, f: (here: unknown, key?: string | number, parent?: unknown) => unknown): unknown => {
  const [key, ...rest] = place
  if (key === undefined) return f(json)
  if (Array.isArray(json) && typeof key === "number") return json.map((item, i) => (i === key ? updateAt(item, rest, f) : item))
  if (json !== null && typeof json === "object" && typeof key === "string") {
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, k === key ? updateAt(v, rest, f) : v]))
  }
  return json
}

/** A defect of shape, put at a place. */
type Defect =
  | { readonly _tag: "RemoveField" }
  | { readonly _tag: "AddField" }
  | { readonly _tag: "OtherType"; readonly value: unknown }
  | { readonly _tag: "UnknownName" }
  | { readonly _tag: "BadIdentifier"; readonly text: string }

const defect: fc.Arbitrary<Defect> = fc.oneof(
  fc.constant<Defect>({ _tag: "RemoveField" }),
  fc.constant<Defect>({ _tag: "AddField" }),
  fc.constantFrom<unknown>(null, true, 3, "x", [], {}).map((value): Defect => ({ _tag: "OtherType", value })),
  fc.constant<Defect>({ _tag: "UnknownName" }),
  fc.constantFrom("", "x".repeat(257), "a\u0000b").map((text): Defect => ({ _tag: "BadIdentifier", text }))
)

const withDefect = (json: unknown, place: Place, d: Defect): unknown => {
  switch (d._tag) {
    case "RemoveField": {
      const key = place[place.length - 1]
      if (typeof key !== "string") return json
      return updateAt(json, place.slice(0, -1), (parent) =>
        parent !== null && typeof parent === "object" && !Array.isArray(parent)
          ? Object.fromEntries(Object.entries(parent).filter(([k]) => k !== key))
          : parent)
    }
    case "AddField":
      return updateAt(json, place, (here) =>
        here !== null && typeof here === "object" && !Array.isArray(here) ? { ...here, zz_unknown: 1 } : here)
    case "OtherType":
      return updateAt(json, place, (here) => (typeof here === typeof d.value && Array.isArray(here) === Array.isArray(d.value) ? here : d.value))
    case "UnknownName":
      return updateAt(json, place, (here) => (typeof here === "string" ? `${here}-unknown-name` : here))
    case "BadIdentifier":
      return updateAt(json, place, (here) => (typeof here === "string" ? d.text : here))
  }
}

const withBodies = routes.flatMap(({ method, path, endpoint }) => {
  if (endpoint.body === undefined) return []
  const schema = endpoint.body.schema as Schema.Codec<unknown, unknown>
  return [{ key: `${method} ${path}`, method, path, schema }]
})

describe("the published document and the decoders", () => {
  it("cover every route that takes a body", () => {
    expect(withBodies.length).toBeGreaterThan(20)
  })

  for (const { key, method, path, schema } of withBodies) {
    it(`${key}: the document accepts what the decoder accepts, and refuses what it refuses for its shape`, () => {
      const decode = decoderOf(path, schema)
      const valid = validatorOf(path, method)
      const encode = Schema.encodeUnknownResult(schema)
      const samples = Effect.runSync(Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 40, seed: 11 }))
      const bodies = samples.flatMap((value) => {
        const json = encode(value)
        return Result.isSuccess(json) ? [JSON.parse(JSON.stringify(json.success)) as unknown] : []
      })
      expect(bodies.length).toBeGreaterThan(0)
      for (const body of bodies) {
        expect(Result.isSuccess(decode(body)), JSON.stringify(body)).toBe(true)
        expect(valid(body), `the document refuses a body the decoder reads: ${JSON.stringify(body)}`).toBe(true)
      }
      fc.assert(
        fc.property(fc.nat(bodies.length - 1), fc.nat(), defect, (i, where, d) => {
          const body = bodies[i]
          const places = placesIn(body)
          const broken = withDefect(body, places[where % places.length] ?? [], d)
          const read = Result.isSuccess(decode(broken))
          expect(valid(broken), `${read ? "read" : "refused"} by the decoder, not by the document: ${JSON.stringify(broken)}`).toBe(read)
        }),
        { numRuns: 300 }
      )
    })
  }
})
