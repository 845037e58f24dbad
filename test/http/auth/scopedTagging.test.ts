import { Option } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import * as B from "../../../src/vocabulary/b/index.ts"
import { decoded } from "../../crossVocabulary/answers.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

/**
 * Tag edits made with a scoped token (docs/auth.md, "Tagging with a scoped token"): they never let the
 * token, nor any other scope, reach a channel it did not reach. A service tag changes what every channel
 * of the service matches, so a scoped token tags only services all of whose channels it reaches; it
 * tags only channels it reaches; and it never adds a tag its own scope selects by.
 */

/** Service s has a channel in the scopes below (setter:x) and one outside (setter:y); t is whole. */
const home = {
  adapter: "simulator@gateway.local",
  services: [
    {
      id: "service:s@sim",
      tags: ["kitchen"],
      setters: [{ id: "setter:x@sim", kind: "OnOff" }, { id: "setter:y@sim", kind: "OnOff", tags: ["spare"] }]
    },
    { id: "service:t@sim", tags: [], setters: [{ id: "setter:t@sim", kind: "OnOff" }] }
  ]
}

type Rights = ReadonlyArray<"read" | "write" | "watch" | "tag">
const allRights: Rights = ["read", "write", "tag"]

let gateway: GatewayOverHttp
beforeEach(async () => {
  gateway = await startGateway(home)
})
afterEach(() => gateway.close())

/** A token of the scope, and calls made with it. */
const scopedToken = async (channels: unknown, rights: Rights = allRights) => {
  const { token } = await gateway.createToken({ scope: decoded(decode(B.ScopeJson, { channels, rights })) })
  const call = (method: string, path: string, body?: unknown) =>
    gateway.call(method, path, body, { authorization: `Bearer ${token}` })
  return {
    call,
    /** The setters it lists, by id. */
    setters: async () => ((await call("GET", "/api/v1/channels/setters")).json as ReadonlyArray<{ id: string }>).map((c) => c.id)
  }
}

/** The tags of a service and of a setter, as the admin sees them. */
const serviceTags = async (id: string) =>
  ((await gateway.call("GET", "/api/v1/services", { id })).json as ReadonlyArray<{ tags: unknown }>).map((s) => s.tags)
const setterTags = async (id: string) =>
  ((await gateway.call("GET", "/api/v1/channels/setters", { id })).json as ReadonlyArray<{ tags: unknown }>).map((c) => c.tags)

/** The same service tag edit, in vocabulary B and in vocabulary A. */
const tagService = {
  B: (method: "POST" | "DELETE", service: string, tags: ReadonlyArray<string>) =>
    ["/api/v1/services/tag", method, { services: { id: service }, tags }] as const,
  A: (method: "POST" | "DELETE", service: string, tags: ReadonlyArray<string>) =>
    ["/api/v1/nodes/tag", method, { set: [{ id: { Exactly: service } }], tags }] as const
}

/** The same channel tag edit, in vocabulary B (the shared route and the setters' alias) and in A. */
const tagChannel = {
  B: (method: "POST" | "DELETE", channel: string, tags: ReadonlyArray<string>) =>
    ["/api/v1/channels/tag", method, { set: { id: channel }, tags }] as const,
  "B alias": (method: "POST" | "DELETE", channel: string, tags: ReadonlyArray<string>) =>
    ["/api/v1/channels/setter/tags", method, { setters: { id: channel }, tags }] as const,
  A: (method: "POST" | "DELETE", channel: string, tags: ReadonlyArray<string>) =>
    ["/api/v1/channels/tag", method, { set: [{ id: { Exactly: channel } }], tags }] as const
}

const forbidden = { status: 403, json: expect.stringContaining("its scope selects by") }

describe("a scoped token tagging services", () => {
  for (const [vocabulary, edit] of Object.entries(tagService)) {
    it(`cannot reach a channel of a service it sees in part by giving the service a tag its scope selects by (${vocabulary})`, async () => {
      const token = await scopedToken([{ id: "setter:x@sim" }, { service_tags: ["hall"] }])
      expect(await token.setters()).toEqual(["setter:x@sim"])
      const [path, method, body] = edit("POST", "service:s@sim", ["hall"])
      expect(await token.call(method, path, body)).toMatchObject(forbidden)
      expect(await token.setters()).toEqual(["setter:x@sim"])
      const write = await token.call("PUT", "/api/v1/channels/set", { select: { id: "setter:y@sim" }, value: { OnOff: "On" } })
      expect(write.json).toEqual({ "setter:y@sim": { Error: { NoSuchSetter: "setter:y@sim" } } })
      expect(await gateway.lastSent("setter:y@sim")).toEqual(Option.none())
      expect(await serviceTags("service:s@sim")).toEqual([["kitchen"]])
    })

    it(`leaves out, as if it did not match, a service with a channel outside its scope (${vocabulary})`, async () => {
      const token = await scopedToken([{ id: "setter:x@sim" }, { service_tags: ["hall"] }])
      for (const operation of ["POST", "DELETE"] as const) {
        const [path, method, body] = edit(operation, "service:s@sim", ["blue", "kitchen"])
        expect(await token.call(method, path, body)).toMatchObject({ status: 200, json: 0 })
      }
      expect(await serviceTags("service:s@sim")).toEqual([["kitchen"]])
      expect(await token.setters()).toEqual(["setter:x@sim"])
    })

    it(`tags a service all of whose channels it reaches, and may take away a tag its scope selects by (${vocabulary})`, async () => {
      const token = await scopedToken([{ id: "setter:x@sim" }, { service_tags: ["hall"] }])
      expect((await gateway.call("POST", "/api/v1/services/tag", { services: { id: "service:t@sim" }, tags: ["hall"] })).json).toBe(1)
      expect(await token.setters()).toEqual(["setter:t@sim", "setter:x@sim"])
      const [addPath, addMethod, addBody] = edit("POST", "service:t@sim", ["blue"])
      expect(await token.call(addMethod, addPath, addBody)).toMatchObject({ status: 200, json: 1 })
      expect(await serviceTags("service:t@sim")).toEqual([["blue", "hall"]])
      const [path, method, body] = edit("DELETE", "service:t@sim", ["hall"])
      expect(await token.call(method, path, body)).toMatchObject({ status: 200, json: 1 })
      expect(await token.setters()).toEqual(["setter:x@sim"])
    })
  }

  it("cannot bring a channel it does not reach into another token's scope, by service or channel tags", async () => {
    const editor = await scopedToken([{ id: "setter:x@sim" }])
    const byServiceTag = await scopedToken({ service_tags: ["blue"] }, ["read"])
    const byChannelTag = await scopedToken({ tags: ["blue"] }, ["read"])
    for (const [path, method, body] of [tagService.B("POST", "service:s@sim", ["blue"]), tagService.A("POST", "service:s@sim", ["blue"])]) {
      expect(await editor.call(method, path, body)).toMatchObject({ status: 200, json: 0 })
    }
    for (const [path, method, body] of [tagChannel.B("POST", "setter:y@sim", ["blue"]), tagChannel.A("POST", "setter:y@sim", ["blue"])]) {
      expect(await editor.call(method, path, body)).toMatchObject({ status: 200, json: 0 })
    }
    expect(await byServiceTag.setters()).toEqual([])
    expect(await byChannelTag.setters()).toEqual([])
    // What the editor reaches, it may label for others: that is what a scope by tags is for.
    expect(await editor.call("POST", "/api/v1/channels/tag", { set: { id: "setter:x@sim" }, tags: ["blue"] })).toMatchObject({ json: 1 })
    expect(await byChannelTag.setters()).toEqual(["setter:x@sim"])
  })

  it("needs the tag right before anything else (403 without it, whatever the tags)", async () => {
    const token = await scopedToken([{ service: "service:t@sim" }], ["read"])
    const reply = await token.call("POST", "/api/v1/services/tag", { services: { id: "service:t@sim" }, tags: ["blue"] })
    expect(reply).toMatchObject({ status: 403, json: expect.stringContaining("does not grant the \"tag\" right") })
  })
})

describe("a scoped token tagging channels", () => {
  for (const [vocabulary, edit] of Object.entries(tagChannel)) {
    it(`cannot pull a channel into its scope by giving it a tag its scope selects by (${vocabulary})`, async () => {
      const token = await scopedToken({ tags: ["mine"] })
      expect(await token.setters()).toEqual([])
      const [path, method, body] = edit("POST", "setter:y@sim", ["mine"])
      expect(await token.call(method, path, body)).toMatchObject(forbidden)
      expect(await token.setters()).toEqual([])
      expect(await setterTags("setter:y@sim")).toEqual([["spare"]])
    })

    it(`does not add a tag its scope selects by even to a channel it reaches, so that the tag cannot keep it there (${vocabulary})`, async () => {
      const token = await scopedToken([{ id: "setter:x@sim" }, { tags: ["mine"] }])
      const [path, method, body] = edit("POST", "setter:x@sim", ["mine"])
      expect(await token.call(method, path, body)).toMatchObject(forbidden)
      expect(await setterTags("setter:x@sim")).toEqual([[]])
    })

    it(`tags only channels it reaches: another is absent, and the count leaves it out (${vocabulary})`, async () => {
      const token = await scopedToken([{ id: "setter:x@sim" }, { tags: ["mine"] }])
      for (const operation of ["POST", "DELETE"] as const) {
        const [path, method, body] = edit(operation, "setter:y@sim", ["blue", "spare"])
        expect(await token.call(method, path, body)).toMatchObject({ status: 200, json: 0 })
      }
      expect(await setterTags("setter:y@sim")).toEqual([["spare"]])
      const [path, method, body] = edit("POST", "setter:x@sim", ["blue"])
      expect(await token.call(method, path, body)).toMatchObject({ status: 200, json: 1 })
      expect(await setterTags("setter:x@sim")).toEqual([["blue"]])
      expect(await token.setters()).toEqual(["setter:x@sim"])
    })
  }
})
