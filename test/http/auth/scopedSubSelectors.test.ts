import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as B from "../../../src/vocabulary/b/index.ts"
import { decoded } from "../../crossVocabulary/answers.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"

/**
 * A scoped token probing channels outside its scope through the channel requirements of a service
 * selector (B's `getters` / `setters`, A's `inputs` / `outputs`): docs/auth.md promises such channels
 * are absent exactly as if they did not exist, so a requirement is matched only against the channels
 * the scope reaches, and every probe answers as it would on a home without them.
 */

/** The kitchen light: the scope below reaches its getter `on`; its getter `color` and both setters lie outside. */
const home = {
  adapter: "simulator@gateway.local",
  services: [
    {
      id: "service:kitchen-light@sim",
      tags: ["kitchen"],
      getters: [
        { id: "getter:kitchen-light-on@sim", kind: "OnOff", tags: ["seen"], value: { OnOff: "On" } },
        { id: "getter:kitchen-light-color@sim", kind: "OpenClosed", tags: ["secret"], value: { OpenClosed: "Open" } }
      ],
      setters: [
        { id: "setter:kitchen-light-on@sim", kind: "OnOff", tags: ["secret"], drives: "getter:kitchen-light-on@sim" },
        { id: "setter:kitchen-light-lock@sim", kind: "Ready", tags: [] }
      ]
    }
  ]
}

const kitchen = "service:kitchen-light@sim"

/** Probes of what lies outside the scope: each matches the kitchen light on the whole home, none on the scope's. */
const outsideProbesB: ReadonlyArray<unknown> = [
  { getters: [{ tags: ["secret"] }] },
  { getters: [{ kind: "OpenClosed" }] },
  { getters: [{ id: "getter:kitchen-light-color@sim" }] },
  { setters: [{ tags: ["secret"] }] },
  { setters: [{ kind: "Ready" }] },
  { setters: [{ id: "setter:kitchen-light-on@sim" }] },
  { setters: [{}] },
  // Each requirement met by a channel in scope and by one outside: both must be met in scope.
  { getters: [{ tags: ["seen"] }, { kind: "OpenClosed" }] }
]

const outsideProbesA: ReadonlyArray<unknown> = [
  { inputs: [{ tags: ["secret"] }] },
  { inputs: [{ kind: { Exactly: { OpenClosed: [] } } }] },
  { inputs: [{ id: { Exactly: "getter:kitchen-light-color@sim" } }] },
  { outputs: [{ tags: ["secret"] }] },
  { outputs: [{ kind: { Exactly: { Ready: [] } } }] },
  { outputs: [{ id: { Exactly: "setter:kitchen-light-on@sim" } }] },
  { outputs: [{}] },
  { inputs: [{ tags: ["seen"] }, { kind: { Exactly: { OpenClosed: [] } } }] }
]

/** The same questions about the channel in scope: they must find the service, so that `[]` above means something. */
const insideProbesB: ReadonlyArray<unknown> = [
  { getters: [{ tags: ["seen"] }] },
  { getters: [{ kind: "OnOff" }] },
  { getters: [{ id: "getter:kitchen-light-on@sim" }] }
]

const insideProbesA: ReadonlyArray<unknown> = [
  { inputs: [{ tags: ["seen"] }] },
  { inputs: [{ kind: { Exactly: { OnOff: [] } } }] },
  { inputs: [{ id: { Exactly: "getter:kitchen-light-on@sim" } }] }
]

const lists = {
  B: (probe: unknown) => ["GET", "/api/v1/services", [probe]] as const,
  A: (probe: unknown) => ["GET", "/api/v1/nodes", [probe]] as const
}

let gateway: GatewayOverHttp
let scopedToken: string
beforeAll(async () => {
  gateway = await startGateway(home)
  const scope = decoded(decode(B.ScopeJson, { channels: { id: "getter:kitchen-light-on@sim" }, rights: ["read"] }))
  scopedToken = (await gateway.createToken({ scope })).token
})
afterAll(() => gateway.close())

/** The ids of the services (nodes) a list answers, with the token given. */
const listed = async (request: readonly [string, string, unknown], token: string): Promise<unknown> => {
  const [method, path, body] = request
  const reply = await gateway.call(method, path, body, { authorization: `Bearer ${token}` })
  expect(reply.status).toBe(200)
  return (reply.json as ReadonlyArray<{ readonly id: string }>).map((s) => s.id)
}

describe("a scoped token's service sub-selectors", () => {
  for (const [vocabulary, outside, inside] of [["B", outsideProbesB, insideProbesB], ["A", outsideProbesA, insideProbesA]] as const) {
    const list = lists[vocabulary]

    it(`match nothing outside the scope, in vocabulary ${vocabulary}`, async () => {
      const answers = []
      for (const probe of outside) {
        answers.push({ probe, admin: await listed(list(probe), gateway.token), scoped: await listed(list(probe), scopedToken) })
      }
      // Each probe does find the service on the whole home: were it answered so in scope, it would tell what lies outside.
      expect(answers).toEqual(outside.map((probe) => ({ probe, admin: [kitchen], scoped: [] })))
    })

    it(`match the channels in scope, in vocabulary ${vocabulary}`, async () => {
      const answers = []
      for (const probe of inside) answers.push({ probe, scoped: await listed(list(probe), scopedToken) })
      expect(answers).toEqual(inside.map((probe) => ({ probe, scoped: [kitchen] })))
    })
  }
})
