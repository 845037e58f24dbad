import { describe, expect, it } from "vitest"
import { sharedGateway } from "../../support/hookedGateway.ts"
import { home, initialValues, expectUntouched } from "./homes.ts"

/**
 * Malformed requests to vocabulary B (docs/reference.md §9, §10): a 400 whose body is a JSON string naming the place
 * in the body, with nothing written or tagged, for any part of the request that is invalid.
 */

const knownKinds =
  "Ready, TakeSnapshot, OnOff, OpenClosed, DoorLocked, LightColor, CurrentTime, CurrentTimeOfDay, RemainingTime, " +
  "Countdown, CountEveryInterval, Thermostat, ActualTemperature, OvenTemperature, Username, Password, Log, " +
  "or an extension {\"vendor\", \"adapter\", \"kind\", \"type\"}"
const knownTypes = "Unit, OnOff, OpenClosed, DoorLocked, Duration, TimeStamp, Temperature, Color, String, Json, Binary, ExtBool, ExtNumeric"

describe("malformed bodies", () => {
  const { call, gateway } = sharedGateway(home)

  it.each([
    ["GET", "/api/v1/services", "{\"id\": ", "body: invalid JSON: unexpected end of JSON input"],
    [
      "GET",
      "/api/v1/services",
      "[{}] x",
      "body: invalid JSON: unexpected non-whitespace character after JSON at position 5 (line 1 column 6)"
    ],
    ["GET", "/api/v1/services", { id: 5 }, "body.id: expected a service id (a string), got 5"],
    ["GET", "/api/v1/services", { tags: "light" }, "body.tags: expected an array of strings, got \"light\""],
    [
      "POST",
      "/api/v1/services",
      [{}, { getters: [{ kind: "OnOff" }, { kind: 3 }] }],
      "body[1].getters[1].kind: expected a kind such as \"OnOff\", got 3"
    ],
    ["GET", "/api/v1/channels/getters", [{}, { kind: "Toaster" }], `body[1].kind: unknown kind "Toaster" (known: ${knownKinds})`],
    [
      "GET",
      "/api/v1/channels/getters",
      { kind: { vendor: "acme", adapter: "weather", kind: "wind-speed" } },
      "body.kind: missing field \"type\""
    ],
    [
      "GET",
      "/api/v1/channels/getters",
      { kind: { vendor: "acme", adapter: "weather", kind: "wind-speed", type: "Float" } },
      `body.kind.type: unknown value type "Float" (known: ${knownTypes})`
    ],
    ["GET", "/api/v1/channels/setters", { service_tags: ["ok", 3] }, "body.service_tags[1]: expected a tag (a string), got 3"],
    ["GET", "/api/v1/channels/get", { id: "" }, "body.id: must not be empty"],
    ["GET", "/api/v1/channels/get", { id: `getter:${"x".repeat(250)}` }, "body.id: must be at most 256 characters"],
    ["GET", "/api/v1/channels/get", { service: "service:\u0000" }, "body.service: must not contain control characters"],
    [
      "PUT",
      "/api/v1/channels/get",
      "\"getter:garden-time@b\"",
      "body: expected a GetterSelector or an array of them, got \"getter:garden-time@b\""
    ],
    ["POST", "/api/v1/channels/get", "null", "body: expected a GetterSelector or an array of them, got null"],
    ["PUT", "/api/v1/channels/set", { select: {}, value: { OnOff: "on" } }, "body.value.OnOff: expected \"On\" or \"Off\", got \"on\""],
    ["PUT", "/api/v1/channels/set", { select: {}, value: { Color: { h: 0, s: 2, v: 0 } } }, "body.value.Color.s: must be between 0 and 1"],
    ["PUT", "/api/v1/channels/set", { select: {}, value: { Duration: -1 } }, "body.value.Duration: must not be negative"],
    [
      "PUT",
      "/api/v1/channels/set",
      { select: {}, value: { TimeStamp: "2026-11-22T06:00:00" } },
      "body.value.TimeStamp: expected an RFC 3339 timestamp with an offset, such as \"2026-11-22T06:00:00.000+00:00\""
    ],
    [
      "PUT",
      "/api/v1/channels/set",
      { select: {}, value: { OnOff: "On", Unit: null } },
      "body.value: expected a value such as {\"OnOff\": \"On\"}, got an object with 2 keys"
    ],
    ["PUT", "/api/v1/channels/set", { select: {} }, "body: missing field \"value\""],
    ["PUT", "/api/v1/channels/set", { value: { OnOff: "On" } }, "body: missing field \"select\""],
    [
      "PUT",
      "/api/v1/channels/set",
      { select: {}, value: { OnOff: "On" }, user: "me" },
      "body: unknown field \"user\" (a send target {\"select\", \"value\"} takes select, value)"
    ],
    [
      "PUT",
      "/api/v1/channels/set",
      [{ select: {}, value: { OnOff: "On" } }, { select: { kind: "Toaster" }, value: { OnOff: "On" } }],
      `body[1].select.kind: unknown kind "Toaster" (known: ${knownKinds})`
    ],
    ["PUT", "/api/v1/channels/set", [{ kind: "OnOff" }, { Switch: "On" }], `body[1]: unknown value type "Switch" (known: ${knownTypes})`],
    [
      "PUT",
      "/api/v1/channels/set",
      [{ select: {}, value: { OnOff: "On" } }, { OnOff: "On" }],
      "body[1]: unknown field \"OnOff\" (a send target {\"select\", \"value\"} takes select, value)"
    ],
    [
      "PUT",
      "/api/v1/channels/set",
      "\"On\"",
      "body: expected {\"select\": …, \"value\": …}, an array of them, or [selectors, value], got \"On\""
    ],
    [
      "POST",
      "/api/v1/channels/tag",
      { set: { id: "getter:garden-time@b" }, tags: "t" },
      "body.tags: expected an array of strings, got \"t\""
    ],
    [
      "DELETE",
      "/api/v1/services/tag",
      { services: { getters: [{ kind: "OnOff", colour: "red" }] }, tags: ["t"] },
      "body.services.getters[0]: unknown field \"colour\" (a GetterSelector takes id, service, tags, service_tags, kind)"
    ],
    [
      "POST",
      "/api/v1/channels/setter/tags",
      { setters: [{}, { id: 7 }], tags: ["t"] },
      "body.setters[1].id: expected a channel id (a string), got 7"
    ]
  ])("%s %s with %j is a 400 naming the place", async (method, path, body, message) => {
    const reply = await gateway().call(method, path, body)
    expect({ status: reply.status, contentType: reply.headers["content-type"], body: reply.json }).toEqual({
      status: 400,
      contentType: "application/json",
      body: message
    })
  })

  it("refuses a field named `__proto__` like any unknown field", async () => {
    expect(await call("GET", "/api/v1/channels/get", "{\"__proto__\": {\"id\": \"getter:garden-time@b\"}}")).toEqual({
      status: 400,
      body: "body: unknown field \"__proto__\" (a GetterSelector takes id, service, tags, service_tags, kind)"
    })
  })

  it("writes nothing when one value of the request is malformed, wherever it is", async () => {
    const body = [
      { select: { kind: "OnOff" }, value: { OnOff: "On" } },
      { select: { id: "setter:kitchen-light-color@b" }, value: { Color: { h: 0, s: 2, v: 0 } } }
    ]
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({ status: 400, body: "body[1].value.Color.s: must be between 0 and 1" })
    await expectUntouched(call)
  })

  it("writes nothing when one selector of the request is malformed", async () => {
    const body = { select: [{ kind: "OnOff" }, { id: "setter:porch-light-on@b", colour: "red" }], value: { OnOff: "On" } }
    expect(await call("PUT", "/api/v1/channels/set", body)).toEqual({
      status: 400,
      body: "body.select[1]: unknown field \"colour\" (a SetterSelector takes id, service, tags, service_tags, kind)"
    })
    await expectUntouched(call)
  })

  it("tags nothing when one selector or one tag of the request is malformed", async () => {
    expect(await call("POST", "/api/v1/channels/tag", { set: [{}, { kind: "Toaster" }], tags: ["x"] })).toEqual({
      status: 400,
      body: `body.set[1].kind: unknown kind "Toaster" (known: ${knownKinds})`
    })
    expect(await call("POST", "/api/v1/services/tag", { services: {}, tags: ["x", ""] })).toEqual({
      status: 400,
      body: "body.tags[1]: must not be empty"
    })
    expect(await call("POST", "/api/v1/channels/getter/tags", { getters: [{}], tags: ["x", 1] })).toEqual({
      status: 400,
      body: "body.tags[1]: expected a tag (a string), got 1"
    })
    await expectUntouched(call)
  })

  it("is a 400 for a tag or send without a body, and a read without one reads everything", async () => {
    for (const [method, path] of [
      ["POST", "/api/v1/services/tag"],
      ["DELETE", "/api/v1/channels/tag"],
      ["POST", "/api/v1/channels/getter/tags"],
      ["DELETE", "/api/v1/channels/setter/tags"],
      ["PUT", "/api/v1/channels/set"]
    ] as const) {
      expect(await call(method, path)).toEqual({ status: 400, body: "body: required, a JSON document" })
      // A body of blanks is no body.
      expect(await call(method, path, "  \n")).toEqual({ status: 400, body: "body: required, a JSON document" })
    }
    expect(await call("GET", "/api/v1/channels/get", " ")).toEqual({ status: 200, body: initialValues })
    await expectUntouched(call)
  })
})
