import { describe, expect, it } from "vitest"
import { maxBodyDepth } from "../../src/http/body/RequestLimits.ts"
import { sharedGateway } from "../support/hookedGateway.ts"
import { home } from "./vocabularyB/homes.ts"

/** JSON text nested `depth` arrays deep. */
const nestedArrays = (depth: number): string => "[".repeat(depth) + "]".repeat(depth)
/** JSON text nested `depth` objects deep. */
const nestedObjects = (depth: number): string => "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)

const tooDeep = `body: nested deeper than ${maxBodyDepth} levels`

describe(`a body nested deeper than ${maxBodyDepth} levels`, () => {
  const { call } = sharedGateway(home)

  it("POST /api/v1/channels/tag with 10,000 levels (20 KB) is a 400, not a 500", async () => {
    expect(await call("POST", "/api/v1/channels/tag", nestedArrays(10_000))).toEqual({ status: 400, body: tooDeep })
    expect(await call("DELETE", "/api/v1/channels/tag", `{"set": ${nestedObjects(10_000)}, "tags": ["t"]}`))
      .toEqual({ status: 400, body: tooDeep })
  })

  it("is a 400 on every route that reads a body, whatever field holds it", async () => {
    const document = await call("GET", "/api/v1/openapi.json")
    const paths = Object.entries((document.body as { paths: Record<string, Record<string, unknown>> }).paths)
    // The routes the document says take a body (not the document itself, nor the watch socket, which reads frames).
    const routes = paths.flatMap(([path, methods]) =>
      !path.startsWith("/api/v1/")
        ? []
        : Object.entries(methods).flatMap(([m, operation]) =>
          typeof operation === "object" && operation !== null && "requestBody" in operation ? [[m, path] as const] : []
        )
    )
    expect(routes.length).toBeGreaterThan(20)
    const deep = nestedObjects(maxBodyDepth)
    const bodies = [nestedArrays(maxBodyDepth + 1), `{"set": ${deep}, "tags": []}`, `[{"tags": [${deep}]}]`, `[[${deep}], null]`]
    for (const [method, path] of routes) {
      for (const body of bodies) {
        expect({ method, path, answer: await call(method.toUpperCase(), path, body) })
          .toEqual({ method, path, answer: { status: 400, body: tooDeep } })
      }
    }
  })

  it("a value nested as deep as a Json value may be is still read", async () => {
    const json = nestedArrays(256)
    const answer = await call("PUT", "/api/v1/channels/set", `{"select": {"id": "setter:none@b"}, "value": {"Json": ${json}}}`)
    expect(answer).toEqual({ status: 200, body: { "setter:none@b": { Error: { NoSuchSetter: "setter:none@b" } } } })
  })
})
