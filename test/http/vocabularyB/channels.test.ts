import { describe, expect, it } from "vitest"
import { freshGateway, ids, sharedGateway, tagsById } from "../../support/hookedGateway.ts"
import { allGetters, allSetters, getters, home, setters } from "./homes.ts"

/**
 * get_getter_channels, get_setter_channels and the channel tag operations over HTTP (docs/reference.md §4–6, §9):
 * `/channels/tag` with B bodies (getters and setters alike) and the aliases `/channels/getter/tags`
 * (getters only) and `/channels/setter/tags` (setters only).
 */

describe("get_getter_channels (GET /api/v1/channels/getters, alias POST)", () => {
  const { call } = sharedGateway(home)

  it("answers every getter, sorted by id, with exactly the keys of a Channel, when called with no body", async () => {
    expect(await call("GET", "/api/v1/channels/getters")).toEqual({ status: 200, body: allGetters })
  })

  it("answers the same to POST", async () => {
    expect(await call("POST", "/api/v1/channels/getters")).toEqual({ status: 200, body: allGetters })
    expect(await call("POST", "/api/v1/channels/getters", { kind: "OnOff" })).toEqual({
      status: 200,
      body: [getters.kitchenLightOn, getters.porchLightOn]
    })
  })

  it("answers every getter for {} and none for []", async () => {
    expect(await call("GET", "/api/v1/channels/getters", {})).toEqual({ status: 200, body: allGetters })
    expect(await call("GET", "/api/v1/channels/getters", [])).toEqual({ status: 200, body: [] })
  })

  it("selects by id, and answers an empty list for the id of a setter or of nothing", async () => {
    expect(await call("GET", "/api/v1/channels/getters", { id: "getter:front-door@b" })).toEqual({
      status: 200,
      body: [getters.frontDoor]
    })
    expect(await call("GET", "/api/v1/channels/getters", { id: "setter:porch-light-on@b" })).toEqual({ status: 200, body: [] })
    expect(await call("GET", "/api/v1/channels/getters", { id: "getter:nowhere@b" })).toEqual({ status: 200, body: [] })
  })

  it("selects by owning service, and answers an empty list for a service that is not there", async () => {
    expect(await call("GET", "/api/v1/channels/getters", { service: "service:thermostat@b" })).toEqual({
      status: 200,
      body: [getters.livingRoomTemperature, getters.thermostatTarget]
    })
    expect(await call("GET", "/api/v1/channels/getters", { service: "service:nowhere@b" })).toEqual({ status: 200, body: [] })
  })

  it("selects by kind, an extension kind included", async () => {
    expect(await call("GET", "/api/v1/channels/getters", { kind: "Thermostat" })).toEqual({
      status: 200,
      body: [getters.thermostatTarget]
    })
    const windSpeed = { vendor: "acme", adapter: "weather", kind: "wind-speed", type: "ExtNumeric" }
    expect(await call("GET", "/api/v1/channels/getters", { kind: windSpeed })).toEqual({
      status: 200,
      body: [getters.windSpeed]
    })
  })

  it("selects getters carrying all the tags given, and getters whose service carries all the `service_tags` given", async () => {
    expect(await call("GET", "/api/v1/channels/getters", { tags: ["lock", "main"] })).toEqual({
      status: 200,
      body: [getters.frontDoorLock]
    })
    expect(await call("GET", "/api/v1/channels/getters", { service_tags: ["inside", "outside"] })).toEqual({
      status: 200,
      body: [getters.livingRoomTemperature, getters.thermostatTarget]
    })
  })

  it("ANDs every field of one selector", async () => {
    expect(await call("GET", "/api/v1/channels/getters", { kind: "OnOff", service_tags: ["outside"] })).toEqual({
      status: 200,
      body: [getters.porchLightOn]
    })
    expect(await call("GET", "/api/v1/channels/getters", { kind: "OnOff", tags: ["main"], service: "service:kitchen-light@b" }))
      .toEqual({ status: 200, body: [] })
  })

  it("ORs the selectors of an array, listing a getter matched twice once", async () => {
    const body = [{ kind: "OnOff" }, { tags: ["main"] }, { id: "getter:doorbell-pressed@b" }]
    expect(await call("GET", "/api/v1/channels/getters", body)).toEqual({
      status: 200,
      body: [getters.doorbellPressed, getters.frontDoorLock, getters.kitchenLightOn, getters.porchLightOn]
    })
  })

  it("reads a null id or service as an absent one, and refuses a null list", async () => {
    expect(await call("GET", "/api/v1/channels/getters", { id: null, service: null, kind: "Thermostat" })).toEqual({
      status: 200,
      body: [getters.thermostatTarget]
    })
    expect(await call("GET", "/api/v1/channels/getters", { kind: "Thermostat", tags: null })).toEqual({
      status: 400,
      body: "body.tags: expected an array of strings, got null"
    })
  })

  it("refuses a kind written the vocabulary A way, saying so", async () => {
    expect(await call("GET", "/api/v1/channels/getters", { kind: { OnOff: [] } })).toEqual({
      status: 400,
      body: "body.kind: expected a kind such as \"OnOff\" or {\"vendor\", \"adapter\", \"kind\", \"type\"}, got vocabulary A's form"
    })
  })
})

describe("get_setter_channels (GET /api/v1/channels/setters, alias POST)", () => {
  const { call } = sharedGateway(home)

  it("answers every setter, sorted by id, when called with no body, and the same to POST", async () => {
    expect(await call("GET", "/api/v1/channels/setters")).toEqual({ status: 200, body: allSetters })
    expect(await call("POST", "/api/v1/channels/setters", [{}])).toEqual({ status: 200, body: allSetters })
  })

  it("answers no setter for []", async () => {
    expect(await call("GET", "/api/v1/channels/setters", [])).toEqual({ status: 200, body: [] })
  })

  it("selects setters by kind, tags, service and service tags", async () => {
    expect(await call("GET", "/api/v1/channels/setters", [{ kind: "Ready" }, { kind: "TakeSnapshot" }])).toEqual({
      status: 200,
      body: [setters.doorbellChime, setters.doorbellSnapshot]
    })
    expect(await call("GET", "/api/v1/channels/setters", { tags: ["main"] })).toEqual({
      status: 200,
      body: [setters.porchLightOn]
    })
    expect(await call("GET", "/api/v1/channels/setters", { service: "service:garden@b" })).toEqual({
      status: 200,
      body: [setters.sprinkler]
    })
    expect(await call("GET", "/api/v1/channels/setters", { service_tags: ["light"], kind: "OnOff" })).toEqual({
      status: 200,
      body: [setters.kitchenLightOn, setters.porchLightOn]
    })
  })

  it("answers an empty list for the id of a getter", async () => {
    expect(await call("GET", "/api/v1/channels/setters", { id: "getter:porch-light-on@b" })).toEqual({ status: 200, body: [] })
  })

  it("refuses a field a SetterSelector does not have, naming it", async () => {
    expect(await call("GET", "/api/v1/channels/setters", [{ kind: "OnOff", mechanism: "setter" }])).toEqual({
      status: 400,
      body: "body[0]: unknown field \"mechanism\" (a SetterSelector takes id, service, tags, service_tags, kind)"
    })
  })
})

describe("add and remove getter and setter tags (POST / DELETE /api/v1/channels/tag)", () => {
  const { call } = freshGateway(home)
  const taggedGetters = async (tag: string) => tagsById((await call("GET", "/api/v1/channels/getters", { tags: [tag] })).body)
  const taggedSetters = async (tag: string) => tagsById((await call("GET", "/api/v1/channels/setters", { tags: [tag] })).body)

  it("tags the getters and the setters a B body's `set` matches, and answers how many matched", async () => {
    expect(await call("POST", "/api/v1/channels/tag", { set: { service: "service:porch-light@b" }, tags: ["porch"] })).toEqual({
      status: 200,
      body: 2
    })
    expect(await taggedGetters("porch")).toEqual({ "getter:porch-light-on@b": ["main", "porch"] })
    expect(await taggedSetters("porch")).toEqual({ "setter:porch-light-on@b": ["main", "porch"] })
  })

  it("tags by kind across both mechanisms", async () => {
    expect(await call("POST", "/api/v1/channels/tag", { set: [{ kind: "LightColor" }, { kind: "Ready" }], tags: ["k"] })).toEqual({
      status: 200,
      body: 4
    })
    expect(ids((await call("GET", "/api/v1/channels/getters", { tags: ["k"] })).body)).toEqual([
      "getter:doorbell-pressed@b",
      "getter:kitchen-light-color@b"
    ])
    expect(ids((await call("GET", "/api/v1/channels/setters", { tags: ["k"] })).body)).toEqual([
      "setter:doorbell-chime@b",
      "setter:kitchen-light-color@b"
    ])
  })

  it("removes the tags with DELETE, initial tags of the home included", async () => {
    expect(await call("DELETE", "/api/v1/channels/tag", { set: { tags: ["main"] }, tags: ["main"] })).toEqual({
      status: 200,
      body: 3
    })
    expect(await taggedGetters("main")).toEqual({})
    expect(await taggedSetters("main")).toEqual({})
    expect(tagsById((await call("GET", "/api/v1/channels/getters", { id: "getter:front-door-lock@b" })).body)).toEqual({
      "getter:front-door-lock@b": ["lock"]
    })
  })

  it("counts the channels matched, changed or not, each once however many selectors match it", async () => {
    const body = { set: [{ tags: ["main"] }, { service: "service:porch-light@b" }, { id: "getter:porch-light-on@b" }], tags: ["main"] }
    expect(await call("POST", "/api/v1/channels/tag", body)).toEqual({ status: 200, body: 3 })
    expect(await call("DELETE", "/api/v1/channels/tag", { set: { tags: ["main"] }, tags: ["never-there"] })).toEqual({
      status: 200,
      body: 3
    })
  })

  it("counts ids that name no channel as 0", async () => {
    expect(await call("POST", "/api/v1/channels/tag", { set: [{ id: "getter:nowhere@b" }, { id: "setter:nowhere@b" }], tags: ["x"] }))
      .toEqual({ status: 200, body: 0 })
    expect(await call("POST", "/api/v1/channels/tag", { set: [], tags: ["x"] })).toEqual({ status: 200, body: 0 })
  })

  it("tags nothing that joins later: tagging is not live", async () => {
    await call("POST", "/api/v1/channels/tag", { set: { service_tags: ["garage"] }, tags: ["x"] })
    await call("POST", "/api/v1/services/tag", { services: { id: "service:garden@b" }, tags: ["garage"] })
    expect(await call("GET", "/api/v1/channels/getters", { tags: ["x"] })).toEqual({ status: 200, body: [] })
  })

  it("refuses the getter alias body's `getters` key, and `set` on the aliases", async () => {
    expect(await call("POST", "/api/v1/channels/tag", { getters: {}, tags: ["x"] })).toEqual({
      status: 400,
      body: "body: unknown field \"getters\" (a tag body takes set, tags)"
    })
    expect(await call("POST", "/api/v1/channels/getter/tags", { set: {}, tags: ["x"] })).toEqual({
      status: 400,
      body: "body: unknown field \"set\" (a tag body takes getters, tags)"
    })
    expect(await call("POST", "/api/v1/channels/setter/tags", { set: {}, tags: ["x"] })).toEqual({
      status: 400,
      body: "body: unknown field \"set\" (a tag body takes setters, tags)"
    })
  })

  it("reads a body as vocabulary B when `?vocabulary=b` forces it, and refuses another vocabulary", async () => {
    expect(await call("POST", "/api/v1/channels/tag?vocabulary=b", { set: { kind: "Ready" }, tags: ["b"] })).toEqual({
      status: 200,
      body: 2
    })
    expect(await call("POST", "/api/v1/channels/tag?vocabulary=b", { set: [{ id: { Exactly: "getter:front-door@b" } }], tags: ["b"] }))
      .toEqual({ status: 400, body: "body.set[0].id: expected a channel id (a string), got an object" })
    expect(await call("POST", "/api/v1/channels/tag?vocabulary=c", { set: {}, tags: ["b"] })).toEqual({
      status: 400,
      body: "query.vocabulary: expected \"a\" or \"b\", got \"c\""
    })
    expect(ids((await call("GET", "/api/v1/channels/getters", { tags: ["b"] })).body)).toEqual(["getter:doorbell-pressed@b"])
  })

  it("is a 400 without a body", async () => {
    for (const method of ["POST", "DELETE"]) {
      expect(await call(method, "/api/v1/channels/tag")).toEqual({ status: 400, body: "body: required, a JSON document" })
    }
  })
})

describe("the getter and setter tag aliases (POST / DELETE /api/v1/channels/getter/tags, /channels/setter/tags)", () => {
  const { call } = freshGateway(home)

  it("touches getters only through /channels/getter/tags", async () => {
    expect(await call("POST", "/api/v1/channels/getter/tags", { getters: { tags: ["main"] }, tags: ["g"] })).toEqual({
      status: 200,
      body: 2
    })
    expect(ids((await call("GET", "/api/v1/channels/getters", { tags: ["g"] })).body)).toEqual([
      "getter:front-door-lock@b",
      "getter:porch-light-on@b"
    ])
    expect(await call("GET", "/api/v1/channels/setters", { tags: ["g"] })).toEqual({ status: 200, body: [] })
  })

  it("touches setters only through /channels/setter/tags", async () => {
    expect(await call("POST", "/api/v1/channels/setter/tags", { setters: [{ service: "service:kitchen-light@b" }], tags: ["s"] }))
      .toEqual({ status: 200, body: 2 })
    expect(await call("GET", "/api/v1/channels/getters", { tags: ["s"] })).toEqual({ status: 200, body: [] })
    expect(ids((await call("GET", "/api/v1/channels/setters", { tags: ["s"] })).body)).toEqual([
      "setter:kitchen-light-color@b",
      "setter:kitchen-light-on@b"
    ])
  })

  it("counts a setter id as 0 on the getter alias and a getter id as 0 on the setter alias", async () => {
    expect(await call("POST", "/api/v1/channels/getter/tags", { getters: { id: "setter:porch-light-on@b" }, tags: ["x"] })).toEqual({
      status: 200,
      body: 0
    })
    expect(await call("POST", "/api/v1/channels/setter/tags", { setters: { id: "getter:porch-light-on@b" }, tags: ["x"] })).toEqual({
      status: 200,
      body: 0
    })
    expect(await call("POST", "/api/v1/channels/tag", { set: { tags: ["x"] }, tags: ["x"] })).toEqual({ status: 200, body: 0 })
  })

  it("removes with DELETE on either alias, each from its own mechanism", async () => {
    expect(await call("DELETE", "/api/v1/channels/getter/tags", { getters: {}, tags: ["main", "lock"] })).toEqual({
      status: 200,
      body: 11
    })
    expect(tagsById((await call("GET", "/api/v1/channels/setters", { tags: ["main"] })).body)).toEqual({
      "setter:porch-light-on@b": ["main"]
    })
    expect(tagsById((await call("GET", "/api/v1/channels/setters", { tags: ["lock"] })).body)).toEqual({
      "setter:front-door-lock@b": ["lock"]
    })
    expect(await call("DELETE", "/api/v1/channels/setter/tags", { setters: {}, tags: ["main", "lock"] })).toEqual({
      status: 200,
      body: 8
    })
    expect(await call("GET", "/api/v1/channels/setters", [{ tags: ["main"] }, { tags: ["lock"] }])).toEqual({
      status: 200,
      body: []
    })
  })

  it("is a 400 without a body", async () => {
    for (const path of ["/api/v1/channels/getter/tags", "/api/v1/channels/setter/tags"]) {
      for (const method of ["POST", "DELETE"]) {
        expect(await call(method, path)).toEqual({ status: 400, body: "body: required, a JSON document" })
      }
    }
  })
})
