import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import * as Query from "../../src/http/routing/Query.ts"

describe("Query.parse", () => {
  it("reads single and repeated parameters, decoded", () => {
    expect(Query.parse("vocabulary=a&auth=t%2Bk&tag=x&tag=y")).toEqual({ vocabulary: "a", auth: "t+k", tag: ["x", "y"] })
  })

  it("reads an empty query as no parameters", () => {
    expect(Query.parse("")).toEqual({})
  })

  it("treats __proto__ as an ordinary name", () => {
    const params = Query.parse("__proto__=1&__proto__=2")
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype)
    expect(Object.hasOwn(params, "__proto__")).toBe(true)
  })
})

describe("Query.param", () => {
  const param = (query: string, name: string) =>
    Effect.runSync(Query.param(name).pipe(Effect.provideService(HttpServerRequest.ParsedSearchParams, Query.parse(query))))

  it("gives the first value of a parameter", () => {
    expect(param("auth=a&auth=b", "auth")).toEqual(Option.some("a"))
  })

  it("gives none for an absent parameter, including inherited names", () => {
    expect(param("auth=a", "vocabulary")).toEqual(Option.none())
    expect(param("", "toString")).toEqual(Option.none())
  })
})
