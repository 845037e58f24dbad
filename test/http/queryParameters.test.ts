import { describe, expect, it } from "vitest"
import { sharedGateway } from "../support/hookedGateway.ts"
import { allServices, home } from "./vocabularyB/homes.ts"

describe("query parameters", () => {
  const { call } = sharedGateway(home)

  it("an unknown one is a 400 naming it, like an unknown body field", async () => {
    expect(await call("GET", "/api/v1/services?tags=light")).toEqual({
      status: 400,
      body: "query: unknown parameter \"tags\" (known: auth, vocabulary)"
    })
    expect(await call("GET", "/api/v1/channels/value?vocabulary=a&limit=1", [])).toEqual({
      status: 400,
      body: "query: unknown parameter \"limit\" (known: auth, vocabulary)"
    })
    expect((await call("GET", "/health?verbose")).status).toBe(400)
  })

  it("?vocabulary= and ?auth= are known on every path", async () => {
    expect(await call("GET", "/api/v1/services?vocabulary=b&auth=token")).toEqual({ status: 200, body: allServices })
    expect(await call("GET", "/health?auth=token")).toEqual({ status: 200, body: { status: "ok" } })
  })

  it("an unknown path is still a 404 and a wrong method a 405, whatever the query", async () => {
    expect((await call("GET", "/api/v1/nope?tags=x")).status).toBe(404)
    expect((await call("PATCH", "/api/v1/services?tags=x")).status).toBe(405)
  })
})
