import { describe, expect, it } from "vitest"
import { freshGateway, ids, sharedGateway, tagsById } from "../../support/hookedGateway.ts"
import { allServices, home, services } from "./homes.ts"

/** get_services, add_service_tags and remove_service_tags over HTTP (docs/reference.md §4–6, vocabulary B). */

describe("get_services (GET /api/v1/services, alias POST)", () => {
  const { call, gateway } = sharedGateway(home)

  it("answers every service, sorted by id, its channels sorted, with exactly the keys of a Service, when called with no body", async () => {
    expect(await call("GET", "/api/v1/services")).toEqual({ status: 200, body: allServices })
  })

  it("answers 200 with Content-Type application/json", async () => {
    const reply = await gateway().call("GET", "/api/v1/services", [])
    expect({ status: reply.status, contentType: reply.headers["content-type"] }).toEqual({
      status: 200,
      contentType: "application/json"
    })
  })

  it("writes `updated` and `last_seen` as UTC timestamps with milliseconds, or null", async () => {
    const reply = await gateway().call("GET", "/api/v1/services", { id: "service:doorbell@b" })
    const [doorbell] = reply.json as ReadonlyArray<{ getters: ReadonlyArray<{ updated: unknown; last_seen: unknown }> }>
    const [pressed] = doorbell?.getters ?? []
    expect(pressed?.updated).toBeNull()
    expect(pressed?.last_seen).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/)
  })

  it("answers the same to POST, the alias for clients that cannot send a body on GET", async () => {
    expect(await call("POST", "/api/v1/services", { tags: ["light"] })).toEqual({
      status: 200,
      body: [services.kitchenLight, services.porchLight]
    })
    expect(await call("POST", "/api/v1/services")).toEqual({ status: 200, body: allServices })
  })

  it("answers every service for {}, the selector with no fields, alone or in an array", async () => {
    expect(await call("GET", "/api/v1/services", {})).toEqual({ status: 200, body: allServices })
    expect(await call("GET", "/api/v1/services", [{}])).toEqual({ status: 200, body: allServices })
  })

  it("answers no service for [], the empty array", async () => {
    expect(await call("GET", "/api/v1/services", [])).toEqual({ status: 200, body: [] })
  })

  it("selects a service by id", async () => {
    expect(await call("GET", "/api/v1/services", { id: "service:garden@b" })).toEqual({
      status: 200,
      body: [services.garden]
    })
  })

  it("answers an empty list, not an error, for an id that names no service", async () => {
    expect(await call("GET", "/api/v1/services", { id: "service:nowhere@b" })).toEqual({ status: 200, body: [] })
  })

  it("selects the services that carry all the tags given", async () => {
    expect(await call("GET", "/api/v1/services", { tags: ["outside", "light"] })).toEqual({
      status: 200,
      body: [services.porchLight]
    })
    expect(await call("GET", "/api/v1/services", { tags: ["outside", "entrance"] })).toEqual({ status: 200, body: [] })
  })

  it("ANDs the fields of one selector: id and tags must both hold", async () => {
    expect(await call("GET", "/api/v1/services", { id: "service:garden@b", tags: ["outside"] })).toEqual({
      status: 200,
      body: [services.garden]
    })
    expect(await call("GET", "/api/v1/services", { id: "service:garden@b", tags: ["light"] })).toEqual({
      status: 200,
      body: []
    })
  })

  it("ORs the selectors of an array, listing a service matched twice once", async () => {
    const body = [{ id: "service:thermostat@b" }, { tags: ["entrance"] }, { tags: ["inside"] }]
    expect(await call("GET", "/api/v1/services", body)).toEqual({
      status: 200,
      body: [services.doorbell, services.frontDoor, services.kitchenLight, services.thermostat]
    })
  })

  it("selects services having, for each of `getters`, at least one getter that matches it", async () => {
    expect(ids((await call("GET", "/api/v1/services", { getters: [{ kind: "OnOff" }] })).body)).toEqual([
      "service:kitchen-light@b",
      "service:porch-light@b"
    ])
    // Both listed selectors must find a getter, not necessarily the same one.
    expect(await call("GET", "/api/v1/services", { getters: [{ kind: "OnOff" }, { kind: "LightColor" }] })).toEqual({
      status: 200,
      body: [services.kitchenLight]
    })
    expect(await call("GET", "/api/v1/services", { getters: [{ kind: "OpenClosed" }, { tags: ["lock"] }] })).toEqual({
      status: 200,
      body: [services.frontDoor]
    })
  })

  it("requires one channel to match the whole of a listed channel selector", async () => {
    // The front door has an OpenClosed getter and a getter tagged `lock`, but no getter that is both.
    expect(await call("GET", "/api/v1/services", { getters: [{ kind: "OpenClosed", tags: ["lock"] }] })).toEqual({
      status: 200,
      body: []
    })
  })

  it("selects services having, for each of `setters`, at least one setter that matches it", async () => {
    expect(await call("GET", "/api/v1/services", { setters: [{ kind: "Ready" }] })).toEqual({
      status: 200,
      body: [services.doorbell]
    })
    expect(
      ids((await call("GET", "/api/v1/services", { getters: [{ kind: "OnOff" }], setters: [{ kind: "LightColor" }] })).body)
    ).toEqual(["service:kitchen-light@b"])
  })

  it("matches a getter selector against getters only and a setter selector against setters only", async () => {
    expect(await call("GET", "/api/v1/services", { setters: [{ id: "getter:front-door@b" }] })).toEqual({
      status: 200,
      body: []
    })
    expect(await call("GET", "/api/v1/services", { getters: [{ kind: "TakeSnapshot" }] })).toEqual({
      status: 200,
      body: []
    })
  })

  it("reads an empty `getters` list as no requirement", async () => {
    expect(await call("GET", "/api/v1/services", { getters: [], setters: [] })).toEqual({
      status: 200,
      body: allServices
    })
  })

  it("selects by extension kind and by the tags of channels inside `getters`", async () => {
    const windSpeed = { vendor: "acme", adapter: "weather", kind: "wind-speed", type: "ExtNumeric" }
    expect(await call("GET", "/api/v1/services", { getters: [{ kind: windSpeed }] })).toEqual({
      status: 200,
      body: [services.garden]
    })
    expect(ids((await call("GET", "/api/v1/services", { getters: [{ tags: ["main"] }] })).body)).toEqual([
      "service:front-door@b",
      "service:porch-light@b"
    ])
  })

  it("takes an extension kind as the same kind only when all four fields agree", async () => {
    const otherVendor = { vendor: "other", adapter: "weather", kind: "wind-speed", type: "ExtNumeric" }
    expect(await call("GET", "/api/v1/services", { getters: [{ kind: otherVendor }] })).toEqual({ status: 200, body: [] })
  })

  it("refuses a single selector in place of the nested `getters` array", async () => {
    expect(await call("GET", "/api/v1/services", { getters: { kind: "OnOff" } })).toEqual({
      status: 400,
      body:
        "body.getters: expected an array of GetterSelectors, got an object (a single selector in place of an array is accepted only at the top level)"
    })
  })

  it("refuses a field a ServiceSelector does not have, naming it", async () => {
    expect(await call("GET", "/api/v1/services", [{}, { kind: "OnOff" }])).toEqual({
      status: 400,
      body: "body[1]: unknown field \"kind\" (a ServiceSelector takes id, tags, getters, setters)"
    })
  })
})

describe("add_service_tags and remove_service_tags (POST / DELETE /api/v1/services/tag, alias /services/tags)", () => {
  const { call } = freshGateway(home)
  const tagsOfServices = async () => tagsById((await call("GET", "/api/v1/services")).body)

  it("adds the tags to every service matched, sorted and without duplicates, and answers how many matched", async () => {
    expect(await call("POST", "/api/v1/services/tag", { services: { tags: ["light"] }, tags: ["zeta", "alpha", "zeta"] })).toEqual({
      status: 200,
      body: 2
    })
    expect(await tagsOfServices()).toEqual({
      "service:doorbell@b": ["entrance"],
      "service:front-door@b": ["door", "entrance"],
      "service:garden@b": ["outside"],
      "service:kitchen-light@b": ["alpha", "inside", "light", "zeta"],
      "service:porch-light@b": ["alpha", "light", "outside", "zeta"],
      "service:thermostat@b": ["inside", "outside"]
    })
  })

  it("tags the service only, not its channels, and `service_tags` then selects its channels", async () => {
    await call("POST", "/api/v1/services/tag", { services: [{ id: "service:garden@b" }], tags: ["lawn"] })
    expect(tagsById((await call("GET", "/api/v1/channels/getters", { service: "service:garden@b" })).body)).toEqual({
      "getter:garden-time@b": [],
      "getter:sprinkler-running@b": [],
      "getter:wind-speed@b": []
    })
    expect(ids((await call("GET", "/api/v1/channels/getters", { service_tags: ["lawn"] })).body)).toEqual([
      "getter:garden-time@b",
      "getter:sprinkler-running@b",
      "getter:wind-speed@b"
    ])
    expect(ids((await call("GET", "/api/v1/channels/setters", { service_tags: ["lawn"] })).body)).toEqual([
      "setter:sprinkler@b"
    ])
  })

  it("removes the tags with DELETE, initial tags of the home included, and answers how many matched", async () => {
    expect(await call("DELETE", "/api/v1/services/tag", { services: { tags: ["outside"] }, tags: ["outside", "light"] })).toEqual({
      status: 200,
      body: 3
    })
    expect(await tagsOfServices()).toEqual({
      "service:doorbell@b": ["entrance"],
      "service:front-door@b": ["door", "entrance"],
      "service:garden@b": [],
      "service:kitchen-light@b": ["inside", "light"],
      "service:porch-light@b": [],
      "service:thermostat@b": ["inside"]
    })
  })

  it("answers the same through the alias /services/tags", async () => {
    expect(await call("POST", "/api/v1/services/tags", { services: { id: "service:doorbell@b" }, tags: ["ring"] })).toEqual({
      status: 200,
      body: 1
    })
    expect(tagsById((await call("GET", "/api/v1/services", { tags: ["ring"] })).body)).toEqual({
      "service:doorbell@b": ["entrance", "ring"]
    })
    expect(await call("DELETE", "/api/v1/services/tags", { services: { id: "service:doorbell@b" }, tags: ["ring"] })).toEqual({
      status: 200,
      body: 1
    })
    expect(await call("GET", "/api/v1/services", { tags: ["ring"] })).toEqual({ status: 200, body: [] })
  })

  it("counts the services matched, changed or not", async () => {
    const body = { services: { tags: ["inside"] }, tags: ["inside"] }
    expect(await call("POST", "/api/v1/services/tag", body)).toEqual({ status: 200, body: 2 })
    const absent = { services: { tags: ["inside"] }, tags: ["never-there"] }
    expect(await call("DELETE", "/api/v1/services/tag", absent)).toEqual({ status: 200, body: 2 })
    expect(await call("POST", "/api/v1/services/tag", { services: {}, tags: [] })).toEqual({ status: 200, body: 6 })
  })

  it("counts a service matched by several selectors once", async () => {
    const body = { services: [{ tags: ["inside"] }, { id: "service:thermostat@b" }, { tags: ["outside"] }], tags: ["x"] }
    expect(await call("POST", "/api/v1/services/tag", body)).toEqual({ status: 200, body: 4 })
  })

  it("counts an id that names no service as 0, and tags nothing", async () => {
    expect(await call("POST", "/api/v1/services/tag", { services: [{ id: "service:nowhere@b" }], tags: ["x"] })).toEqual({
      status: 200,
      body: 0
    })
    expect(await call("POST", "/api/v1/services/tag", { services: [], tags: ["x"] })).toEqual({ status: 200, body: 0 })
    expect(await call("GET", "/api/v1/services", { tags: ["x"] })).toEqual({ status: 200, body: [] })
  })

  it("selects by `getters` and `setters` when tagging too", async () => {
    const body = { services: { getters: [{ kind: "OnOff" }], setters: [{ kind: "LightColor" }] }, tags: ["colour"] }
    expect(await call("POST", "/api/v1/services/tag", body)).toEqual({ status: 200, body: 1 })
    expect(ids((await call("GET", "/api/v1/services", { tags: ["colour"] })).body)).toEqual(["service:kitchen-light@b"])
  })

  it("is a 400 without a body, and tags nothing", async () => {
    expect(await call("POST", "/api/v1/services/tag")).toEqual({ status: 400, body: "body: required, a JSON document" })
    expect(await call("DELETE", "/api/v1/services/tags")).toEqual({ status: 400, body: "body: required, a JSON document" })
  })

  it("is a 400 naming the missing or unknown field", async () => {
    expect(await call("POST", "/api/v1/services/tag", { services: {} })).toEqual({
      status: 400,
      body: "body: missing field \"tags\""
    })
    expect(await call("POST", "/api/v1/services/tag", { tags: ["x"] })).toEqual({
      status: 400,
      body: "body: missing field \"services\""
    })
    expect(await call("POST", "/api/v1/services/tag", { set: {}, tags: ["x"] })).toEqual({
      status: 400,
      body: "body: unknown field \"set\" (a tag body takes services, tags)"
    })
  })

  it("is a 400 for a tag that is empty, too long or holds a control character, and tags nothing", async () => {
    const refused = async (tag: string, reason: string) =>
      expect(await call("POST", "/api/v1/services/tag", { services: {}, tags: ["fine", tag] })).toEqual({
        status: 400,
        body: `body.tags[1]: ${reason}`
      })
    await refused("", "must not be empty")
    await refused("x".repeat(257), "must be at most 256 characters")
    await refused("bad\ttag", "must not contain control characters")
    expect(await call("GET", "/api/v1/services", { tags: ["fine"] })).toEqual({ status: 200, body: [] })
  })

  it("accepts a tag of 256 characters", async () => {
    const long = "t".repeat(256)
    expect(await call("POST", "/api/v1/services/tag", { services: { id: "service:garden@b" }, tags: [long] })).toEqual({
      status: 200,
      body: 1
    })
    expect(ids((await call("GET", "/api/v1/services", { tags: [long] })).body)).toEqual(["service:garden@b"])
  })
})
