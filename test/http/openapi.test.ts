import * as fc from "fast-check"
import { Context, Effect, JsonSchema, Option, Result, Schema, SchemaRepresentation } from "effect"
import { HttpServerResponse } from "effect/http"
import { describe, expect, it } from "vitest"
import { api, endpointsOf } from "../../src/api/Api.ts"
import { documentation } from "../../src/api/Documentation.ts"
import { routesOf } from "../../src/api/Endpoint.ts"
import { health } from "../../src/api/Health.ts"
import { bindGroup } from "../../src/http/routing/Handlers.ts"
import { healthRoutes } from "../../src/http/routes/HealthRoutes.ts"
import { metricsRoutes } from "../../src/http/routes/MetricsRoutes.ts"
import { migrationGuideRoutes } from "../../src/http/routes/MigrationGuideRoutes.ts"
import { type OpenApiDocument, openApiDocument } from "../../src/http/openapi/OpenApiDocument.ts"
import { openApiRoutes } from "../../src/http/openapi/OpenApiRoutes.ts"
import { channelTagRoutes } from "../../src/http/routes/ChannelTagRoutes.ts"
import { vocabularyARoutes } from "../../src/http/routes/VocabularyARoutes.ts"
import { tokenRoutes } from "../../src/http/routes/TokenRoutes.ts"
import { userRoutes } from "../../src/http/routes/UserRoutes.ts"
import { vocabularyBRoutes } from "../../src/http/routes/VocabularyBRoutes.ts"
import { watchRoutes } from "../../src/http/routes/WatchRoutes.ts"
import * as A from "../../src/vocabulary/a/index.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import * as arb from "../arbitraries/domain.ts"
import { encode } from "../../src/vocabulary/common/WireIssue.ts"

/** Every route the gateway answers, composed as main.ts composes them. */
const served = [
  ...healthRoutes,
  ...vocabularyBRoutes,
  ...vocabularyARoutes,
  ...channelTagRoutes,
  ...userRoutes,
  ...tokenRoutes,
  ...watchRoutes,
  ...metricsRoutes,
  ...migrationGuideRoutes
]
const routes = [...served, ...openApiRoutes(served)]

/** Built once for the file (its tests read it, none changes it): building it was half the file's CPU, once per validator. */
let built: OpenApiDocument | undefined
const theDocument = (): OpenApiDocument => (built ??= openApiDocument(routes))

const keyOf = (r: { readonly method: string; readonly path: string }) => `${r.method} ${r.path}`

/** Every `$ref` string anywhere in `json`. */
const refsIn = (json: unknown): ReadonlyArray<string> => {
  if (Array.isArray(json)) return json.flatMap(refsIn)
  if (json === null || typeof json !== "object") return []
  return Object.entries(json).flatMap(([key, value]) =>
    key === "$ref" && typeof value === "string" ? [value] : refsIn(value)
  )
}

/**
 * A validator for one component, through Effect's JSON Schema importer (no JSON Schema validator is a
 * dependency). Unknown keys are errors, as `additionalProperties: false` says.
 */
const validator = (name: string) => {
  const { schemas } = theDocument().components
  const document = JsonSchema.fromSchemaOpenApi3_1({ $ref: `#/components/schemas/${name}`, $defs: schemas })
  const schema = Schema.make<Schema.Codec<unknown>>(
    SchemaRepresentation.fromJsonSchemaDocument(document, { patterns: "apply" }).ast
  )
  const decode = Schema.decodeUnknownResult(schema)
  return (json: unknown): string | undefined =>
    Result.match(decode(json, { onExcessProperty: "error" }), { onSuccess: () => undefined, onFailure: String })
}

const expectValid = (name: string, examples: ReadonlyArray<unknown>) => {
  const validate = validator(name)
  for (const json of examples) expect(validate(json), `${name}: ${JSON.stringify(json)}`).toBeUndefined()
}

const expectInvalid = (name: string, examples: ReadonlyArray<unknown>) => {
  const validate = validator(name)
  for (const json of examples) expect(validate(json), `${name}: ${JSON.stringify(json)}`).toBeDefined()
}

describe("the OpenAPI document", () => {
  it("matches the snapshot (a change to the contract shows up as a diff to review)", async () => {
    await expect(`${JSON.stringify(theDocument(), null, 2)}\n`).toMatchFileSnapshot("./__snapshots__/openapi.json")
  })

  it("lists exactly the routes the server answers, each with its method", () => {
    const documented = Object.entries(theDocument().paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)
    )
    expect(documented.sort()).toEqual(routes.map(keyOf).sort())
  })

  it("has no description for a route the server does not answer", () => {
    expect(endpointsOf(api).flatMap(routesOf).map(keyOf).sort()).toEqual(routes.map(keyOf).sort())
  })

  it("serves a route only with its description: a group is bound with a handler for each of its endpoints", () => {
    const fine = () => Effect.succeed({ status: "ok" as const })
    const pong = () => Effect.void
    // @ts-expect-error `ping_head` has no handler
    const partly = bindGroup(health, { health: fine, health_head: fine, ping: pong })
    expect(partly.map(keyOf)).toEqual(["GET /health", "HEAD /health", "GET /ping"])
  })

  it("tags each operation by vocabulary; aliases say so in their summary and operationId", () => {
    const all = Object.entries(theDocument().paths).flatMap(([path, item]) =>
      Object.values(item).map((operation) => ({ path, ...operation }))
    )
    const tagOf = (id: string) => all.find((o) => o.operationId === id)?.tags
    expect(tagOf("get_services")).toEqual(["vocabulary B"])
    expect(tagOf("get_nodes")).toEqual(["vocabulary A"])
    expect(tagOf("add_channel_tags")).toEqual(["shared"])
    expect(tagOf("health")).toEqual(["health"])
    expect(tagOf("watch_channels")).toEqual(["watching"])
    expect(new Set(all.map((o) => o.operationId)).size).toBe(all.length)
    for (const o of all) expect(o.summary.endsWith("(alias)")).toBe(o.operationId.includes("_alias_"))
    expect(all.filter((o) => o.operationId.includes("_alias_")).map((o) => o.operationId).sort()).toEqual([
      "add_channel_tags_alias_getters",
      "add_channel_tags_alias_setters",
      "add_service_tags_alias_tags",
      "fetch_values_alias_post",
      "fetch_values_alias_put",
      "get_getter_channels_alias_post",
      "get_input_channels_alias_inputs",
      "get_services_alias_post",
      "get_setter_channels_alias_post",
      "remove_channel_tags_alias_getters",
      "remove_channel_tags_alias_setters",
      "remove_service_tags_alias_tags"
    ])
    // A read's body is optional (absent means everything); a write's is required.
    const getNodes = all.find((o) => o.operationId === "get_nodes")
    const put = all.find((o) => o.operationId === "put_channel_value")
    expect([getNodes?.requestBody?.required, put?.requestBody?.required]).toEqual([false, true])
  })

  it("resolves every $ref, uses every schema, and names no schema twice", () => {
    const document = theDocument()
    // Two different shapes given one identifier would be told apart by a suffix (`ChannelId_1`).
    expect(Object.keys(document.components.schemas).filter((name) => /_\d+$/.test(name))).toEqual([])
    const refs = new Set(refsIn(document))
    const known = new Set([
      ...Object.keys(document.components.schemas).map((n) => `#/components/schemas/${n}`),
      ...Object.keys(document.components.responses).map((n) => `#/components/responses/${n}`)
    ])
    expect([...refs].filter((r) => !known.has(r))).toEqual([])
    expect([...known].filter((r) => !refs.has(r))).toEqual([])
  })

  it("is served at GET /api/v1/openapi.json", async () => {
    const [own] = openApiRoutes(served)
    expect(own && keyOf(own)).toBe(`GET ${documentation.get_openapi_document.path}`)
    if (own === undefined) return
    const response = HttpServerResponse.toWeb(await Effect.runPromise(own.handler(Context.empty())))
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(theDocument())))
  })
})

describe("the document's schemas and the examples of docs/reference.md", () => {
  it("describes values (docs/reference.md §2), with Unit's payload read whatever it is", () => {
    expectValid("Value", [
      { Unit: null }, { Unit: [] }, { Unit: {} }, { Unit: "" }, { Unit: [0] }, { OnOff: "On" }, { OnOff: "Off" }, { OpenClosed: "Closed" },
      { DoorLocked: "Locked" }, { Duration: 60.01 }, { TimeStamp: "2026-11-22T06:00:00.000+00:00" },
      { Temperature: { C: 21.5 } }, { Temperature: { F: 70.7 } }, { Color: { h: 23.5, s: 0.2, v: 0.4 } },
      { String: "hello" }, { Json: { any: ["json", 1, null] } }, { Binary: { data: [0, 1, 2], mimetype: "image/png" } },
      { ExtBool: { value: true, vendor: "v", adapter: "a", kind: "k" } },
      { ExtNumeric: { value: 3.5, vendor: "v", adapter: "a", kind: "k" } }
    ])
    expectInvalid("Value", [
      null, { Color: { h: 23.5, s: 2, v: 0.4 } }, { OnOff: "on" }, { OnOff: "On", String: "x" }, { Duration: -1 },
      { Temperature: { C: 1, F: 2 } }, { Binary: { data: [256], mimetype: "x" } }, { Foo: 1 }
    ])
    expectValid("ValueInput", [null, { OnOff: "On" }])
  })

  it("describes kinds in each vocabulary's form (docs/reference.md §3)", () => {
    const extension = { vendor: "v", adapter: "a", kind: "k", type: "OnOff" }
    expectValid("BKind", ["OnOff", "Log", extension])
    expectInvalid("BKind", [{ OnOff: [] }, "Lamp", { ...extension, type: "Lamp" }])
    expectValid("AKind", [{ OnOff: [] }, { Extension: extension }])
    expectInvalid("AKind", ["OnOff", { OnOff: [], Log: [] }, { OnOff: {} }, {}])
  })

  it("describes selectors (docs/reference.md §4)", () => {
    expectValid("BServiceSelectors", [
      {},
      [],
      [{ id: "service:hall@sim", tags: ["hall"], getters: [{ kind: "OnOff" }], setters: [{ service_tags: ["x"] }] }],
      { id: null, getters: [{ kind: null }] }
    ])
    expectInvalid("BServiceSelectors", [
      { getters: { kind: "OnOff" } },
      { name: "hall" },
      [{ kind: "OnOff" }],
      { getters: null },
      { tags: null }
    ])
    const extension = { vendor: "v", adapter: "a", kind: "k", type: "Unit" }
    expectValid("BGetterSelectors", [{ id: "getter:light@sim" }, [{ service: "s", kind: extension }]])
    expectValid("ANodeSelector", [
      { id: { Exactly: "service:hall@sim" }, inputs: [{ kind: { Exactly: { OnOff: [] } } }] }
    ])
    expectValid("AGetSelector", [{}, { id: { Empty: [] }, parent: { Conflict: [] }, tags: ["t"] }])
    expectInvalid("AGetSelector", [
      { id: "getter:x" },
      { id: null },
      { service_tags: ["t"] },
      { kind: { Exactly: "OnOff" } }
    ])
  })

  it("describes resources (docs/reference.md §5)", () => {
    const channel = {
      id: "getter:light@sim",
      service: "service:hall@sim",
      adapter: "simulator@foxbox.org",
      mechanism: "getter",
      kind: "OnOff",
      tags: ["hall"],
      updated: "2026-11-22T06:00:00.000+00:00",
      last_seen: null
    }
    const service = {
      id: "service:hall@sim",
      adapter: "simulator@foxbox.org",
      tags: [],
      properties: { name: "Hall" },
      getters: [channel],
      setters: []
    }
    expectValid("BService", [service])
    expectInvalid("BService", [{ ...service, name: "Hall" }, { ...service, getters: [{ ...channel, push: [0] }] }])
    const onOff = { OnOff: [] }
    const input = {
      id: "getter:light@sim",
      node: "service:hall@sim",
      tags: [],
      last_seen: null,
      mechanism: { Get: { kind: onOff, updated: null } }
    }
    const output = { ...input, id: "setter:light@sim", mechanism: { Set: { kind: onOff, push: [0], updated: null } } }
    expectValid("ANode", [{ id: "service:hall@sim", tags: ["hall"], inputs: [input], outputs: [output] }])
    expectInvalid("AChannel", [{ ...output, mechanism: { Set: { kind: onOff, push: [], updated: null } } }])
  })

  it("describes request bodies (docs/reference.md §6.2, §6.3)", () => {
    const target = { select: { id: "setter:light@sim" }, value: { OnOff: "On" } }
    expectValid("BSendBody", [
      target,
      [target, { ...target, select: [] }],
      [{ id: "setter:light@sim" }, { OnOff: "On" }],
      [{}, null],
      [[{ id: "setter:lock@sim" }, { DoorLocked: "Locked" }]],
      [[[{ id: "setter:lock@sim" }], { Unit: "" }], target]
    ])
    expectInvalid("BSendBody", [[{ id: "s" }], { select: {} }, [target, { OnOff: "On" }]])
    expectValid("BServiceTagBody", [{ services: { tags: ["kitchen"] }, tags: ["lights"] }])
    expectValid("BGetterTagBody", [{ getters: [{ id: "getter:x" }], tags: [] }])
    const set = [{ id: { Exactly: "setter:light@sim" } }]
    expectValid("APutValueBody", [[set, { OnOff: "On" }], { set, value: { OnOff: "Off" } }])
    expectInvalid("APutValueBody", [[set[0], { OnOff: "On" }], { set: set[0], value: { OnOff: "On" } }])
    expectValid("ChannelTagBody", [
      { set: [{ id: { Exactly: "getter:x" } }], tags: ["t"] },
      { set: { id: "getter:x" }, tags: ["t"] }
    ])
    expectInvalid("ChannelTagBody", [
      { set: [], tags: "t" },
      { set: [{ id: "getter:x", parent: { Empty: [] } }], tags: [] }
    ])
  })

  it("describes results and errors (docs/reference.md §6.4)", () => {
    expectValid("BFetchResults", [{
      "getter:a": { OnOff: "On" },
      "getter:b": null,
      "getter:c": { Error: { TypeError: { expected: "OnOff", got: "Unit" } } },
      "service:gone": { Error: { NoSuchService: "service:gone" } }
    }])
    expectValid("BSendResults", [{ "setter:a": null, "setter:b": { Error: { InternalError: "timed out" } } }])
    expectInvalid("BSendResults", [{ "setter:a": { OnOff: "On" } }, { "setter:a": { Error: { TypeError: [] } } }])
    expectValid("AFetchResults", [[
      ["getter:a", { Ok: { OnOff: "On" } }],
      ["getter:b", { Ok: null }],
      ["service:gone", { Err: { NoSuchNode: "service:gone" } }]
    ]])
    expectValid("ASendResults", [[["setter:a", { Ok: null }], ["setter:b", { Err: { TypeError: [] } }]]])
    expectInvalid("ASendResults", [{ "setter:a": null }, [["setter:a", { Ok: { OnOff: "On" } }]]])
    expectValid("ErrorMessage", ["body[0].tags: expected an array of strings"])
    expectValid("Range", [{ BetweenEq: [{ Temperature: { C: 18 } }, { Temperature: { C: 22 } }] }, { Eq: null }])
    expectValid("BWatchFrame", [{ select: { id: "getter:a" } }, [{ select: [{ tags: ["x"] }], range: "Never" }, { select: {}, range: null }]])
    expectInvalid("BWatchFrame", [[{ source: {} }], { select: {}, range: "Sometimes" }])
    expectValid("AWatchFrame", [[{ source: { id: { Exactly: "getter:a" } }, narrow: [{ tags: ["x"] }], should_watch_values: true }]])
    expectInvalid("AWatchFrame", [{ source: {} }, [{ narrow: [] }]])
    expectValid("AWatchEvent", [{ GetAdded: "getter:a" }, { Error: "body: invalid JSON" }])
    expectInvalid("AWatchEvent", [{ GetterAdded: "getter:a" }])
  })

  it("describes whatever the codecs write", () => {
    const check = <A>(name: string, arbitrary: fc.Arbitrary<A>, encode: (a: A) => unknown) => {
      const validate = validator(name)
      fc.assert(fc.property(arbitrary, (a) => {
        expect(validate(encode(a))).toBeUndefined()
      }), { numRuns: 60 })
    }
    check("Value", arb.value, B.ValueJson.write)
    check("BService", arb.service, B.ServiceJson.write)
    check("ANode", arb.service, A.NodeJson.write)
    check("BFetchResults", arb.fetchResults, B.FetchResultsJson.write)
    check("BSendResults", arb.sendResults, B.SendResultsJson.write)
    check("AFetchResults", arb.fetchResults, A.FetchResultsJson.write)
    check("ASendResults", arb.sendResults, A.SendResultsJson.write)
    check("BSendBody", fc.array(arb.sendTarget(), { maxLength: 3 }), B.SendBodyJson.write)
    check("BServiceTagBody", arb.tagRequest(arb.serviceSelector()), B.ServiceTagBodyJson.write)
    check("BWatchEvent", arb.watchEvent, B.WatchEventJson.write)
    check("AWatchEvent", arb.watchEvent.filter((e) => e._tag !== "WatchRefused"), (e) => Option.getOrThrow(A.encodeWatchEvent(e)))
    const targets = fc.array(arb.watchTarget(arb.getterSelector()), { maxLength: 3 })
    check("BWatchFrame", targets, (r) => Result.getOrThrow(encode(B.WatchFrameJson, r.map((t) => ({ ...t, topology: true })))))
    check("AWatchFrame", targets, (r) =>
      // A has no ranges and no service_tags.
      Result.getOrThrow(encode(A.WatchFrameJson, r.map((t) => ({
        ...t,
        selector: { ...t.selector, serviceTags: [] },
        values: t.values._tag === "InRange" ? { _tag: "Always" } : t.values
      })))))
  })
})
