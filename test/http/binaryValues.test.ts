import { describe, expect, it } from "vitest"
import { send } from "../support/httpRequest.ts"
import { sharedGateway } from "../support/hookedGateway.ts"

const imageKind = { vendor: "acme", adapter: "camera", kind: "image", type: "Binary" }
const bytes = [0, 255, 1, 128, 10, 13]

/** A camera whose image is a Binary value, and a second one with an image of another type. */
const home = {
  adapter: "simulator@binary.test",
  services: [
    {
      id: "service:camera@bin",
      getters: [
        { id: "getter:camera-image@bin", kind: imageKind, value: { Binary: { data: bytes, mimetype: "image/jpeg" } } },
        { id: "getter:camera-label@bin", kind: "Log" }
      ]
    },
    {
      id: "service:other-camera@bin",
      getters: [{ id: "getter:other-image@bin", kind: imageKind, value: { Binary: { data: [1], mimetype: "image/png" } } }]
    }
  ]
}

const jsonAnswer = { "getter:camera-image@bin": { Binary: { data: bytes, mimetype: "image/jpeg" } } }

describe("a lone Binary value as raw bytes", () => {
  const { gateway } = sharedGateway(home)

  /** fetch_values over a real socket (GET with a body, as the spec says), with an `Accept` header if given. */
  const read = (path: string, body: unknown, accept?: string) =>
    send(`${gateway().baseUrl}${path}`, {
      method: "GET",
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${gateway().token}`, ...(accept === undefined ? {} : { accept }) }
    })

  const rawB = (accept: string) => read("/api/v1/channels/get", { id: "getter:camera-image@bin" }, accept)

  it("answers the bytes with the value's Content-Type when Accept prefers it (B fetch_values)", async () => {
    for (const accept of ["image/jpeg", "image/*", "image/jpeg;q=0.9, application/json;q=0.5", "text/html, image/JPEG"]) {
      const reply = await rawB(accept)
      expect({ accept, status: reply.status, type: reply.headers["content-type"] }).toEqual({ accept, status: 200, type: "image/jpeg" })
      expect([...reply.bytes]).toEqual(bytes)
      expect(reply.headers["vary"]).toBe("accept")
    }
  })

  it("answers the bytes through the POST and PUT aliases too", async () => {
    for (const method of ["POST", "PUT"]) {
      const response = await fetch(`${gateway().baseUrl}/api/v1/channels/get`, {
        method,
        headers: { authorization: `Bearer ${gateway().token}`, accept: "image/jpeg" },
        body: JSON.stringify([{ id: "getter:camera-image@bin" }])
      })
      expect(response.headers.get("content-type")).toBe("image/jpeg")
      expect([...new Uint8Array(await response.arrayBuffer())]).toEqual(bytes)
    }
  })

  it("answers vocabulary A's get_channel_value the same way", async () => {
    const reply = await read("/api/v1/channels/value", [{ id: { Exactly: "getter:camera-image@bin" } }], "image/jpeg")
    expect(reply.headers["content-type"]).toBe("image/jpeg")
    expect([...reply.bytes]).toEqual(bytes)
  })

  it("keeps JSON for any other Accept: none, JSON, */*, a tie, or another mimetype", async () => {
    for (const accept of [undefined, "application/json", "*/*", "image/jpeg, application/json", "image/png", "image/jpeg;q=0"]) {
      const reply = await read("/api/v1/channels/get", { id: "getter:camera-image@bin" }, accept)
      expect({ accept, status: reply.status, type: reply.headers["content-type"] })
        .toEqual({ accept, status: 200, type: "application/json" })
      expect(JSON.parse(reply.body)).toEqual(jsonAnswer)
    }
  })

  it("keeps JSON when the read answers more than one channel, or one without a Binary value", async () => {
    const two = await read("/api/v1/channels/get", { kind: imageKind }, "image/jpeg")
    expect(two.headers["content-type"]).toBe("application/json")
    expect(Object.keys(JSON.parse(two.body))).toEqual(["getter:camera-image@bin", "getter:other-image@bin"])
    for (const id of ["getter:camera-label@bin", "getter:no-such@bin"]) {
      const one = await read("/api/v1/channels/get", { id }, "image/jpeg")
      expect({ id, type: one.headers["content-type"] }).toEqual({ id, type: "application/json" })
    }
  })
})
