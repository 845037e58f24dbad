import * as fc from "fast-check"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import * as B from "../../../src/vocabulary/b/index.ts"
import { decoded, sendA, sendB, translated } from "../../crossVocabulary/answers.ts"
import { everyValueJson, randomHomeFile, readRequestA, requestA } from "../../crossVocabulary/randomHomeFile.ts"
import type { GatewayOverHttp } from "../../support/gatewayOverHttp.ts"
import { startGateway } from "../../support/gatewayOverHttp.ts"

/**
 * Scoped tokens (issue 9, item 3) over HTTP, in both vocabularies, on random simulator homes: a scoped
 * request never sees nor touches a channel outside its scope, and within it sees exactly what an
 * unscoped request sees. Answers of both vocabularies are compared in A's words (see answers.ts).
 */

// The pools of randomHomeFile.ts, written as vocabulary B selectors (the `--scope` language).
const scopeSelectorJson = fc
  .record({
    id: fc.option(fc.oneof(fc.nat({ max: 9 }).map((i) => `getter:${i}@prop`), fc.nat({ max: 6 }).map((i) => `setter:${i}@prop`)), { nil: undefined }),
    service: fc.option(fc.nat({ max: 4 }).map((i) => `service:${i}@prop`), { nil: undefined }),
    tags: fc.option(fc.uniqueArray(fc.constantFrom("red", "blue", "green", "hall"), { maxLength: 2 }), { nil: undefined }),
    service_tags: fc.option(fc.uniqueArray(fc.constantFrom("red", "blue", "hall"), { maxLength: 1 }), { nil: undefined }),
    kind: fc.option(fc.constantFrom("OnOff", "OpenClosed", "Ready"), { nil: undefined })
  }, { requiredKeys: [] })
  .map((selector) => Object.fromEntries(Object.entries(selector).filter(([, v]) => v !== undefined)))

const scopeJson = fc.array(scopeSelectorJson, { minLength: 1, maxLength: 3 })

/** The same gateway, called with another token. */
const withToken = (gateway: GatewayOverHttp, token: string): GatewayOverHttp => ({
  ...gateway,
  call: (method, path, body, headers = {}) => gateway.call(method, path, body, { authorization: `Bearer ${token}`, ...headers })
})

interface Item {
  readonly id: string
}
interface Node extends Item {
  readonly inputs: ReadonlyArray<Item>
  readonly outputs: ReadonlyArray<Item>
}

/** The channel ids the scope reaches, asked of the gateway with the admin token. */
const channelsInScope = async (gateway: GatewayOverHttp, selectors: unknown): Promise<ReadonlySet<string>> => {
  const getters = await gateway.call("POST", "/api/v1/channels/getters", selectors)
  const setters = await gateway.call("POST", "/api/v1/channels/setters", selectors)
  return new Set([...(getters.json as ReadonlyArray<Item>), ...(setters.json as ReadonlyArray<Item>)].map((c) => c.id))
}

/** What an unscoped answer (in A's words) shows of the scope. */
const restricted = (operation: string, answer: unknown, inScope: ReadonlySet<string>): unknown => {
  const name = operation.replace(/^get_/, "")
  if (name === "nodes") {
    return (answer as ReadonlyArray<Node>)
      .map((node) => ({ ...node, inputs: node.inputs.filter((c) => inScope.has(c.id)), outputs: node.outputs.filter((c) => inScope.has(c.id)) }))
      .filter((node) => node.inputs.length + node.outputs.length > 0)
  }
  if (name === "channel_value") return (answer as ReadonlyArray<[string, unknown]>).filter(([key]) => inScope.has(key))
  return (answer as ReadonlyArray<Item>).filter((c) => inScope.has(c.id))
}

/** A scoped answer, its keys outside the scope left out: those may only say "no such thing". */
const withinScope = (operation: string, answer: unknown, inScope: ReadonlySet<string>): unknown => {
  if (operation !== "get_channel_value") return answer
  const entries = answer as ReadonlyArray<[string, unknown]>
  for (const [key, result] of entries.filter(([k]) => !inScope.has(k))) expect({ key, result: JSON.stringify(result) }).toMatchObject({ key, result: expect.stringMatching(/NoSuch/) })
  return entries.filter(([key]) => inScope.has(key))
}

/**
 * The keys of a write's answer (in A's words) that lie outside the scope and say anything but "no such
 * thing": a scoped write may name an id it cannot reach, and must then hear of it only as absent.
 */
const writtenOutside = (answer: unknown, inScope: ReadonlySet<string>): ReadonlyArray<[string, unknown]> =>
  (answer as ReadonlyArray<[string, unknown]>).filter(([key, result]) => !inScope.has(key) && !/NoSuch/.test(JSON.stringify(result)))

// Each run starts a gateway: on two shared cores, the default 30 s may not be enough for the whole property.
describe("a token with a scope", () => {
  it("sees, in both vocabularies, exactly what an unscoped token sees of its scope, and nothing else", async () => {
    await fc.assert(
      fc.asyncProperty(randomHomeFile, scopeJson, fc.array(readRequestA, { minLength: 1, maxLength: 8 }), async (home, selectors, requests) => {
        const gateway = await startGateway(home)
        try {
          const scope = decoded(B.decodeScope({ channels: selectors, rights: ["read"] }))
          const scoped = withToken(gateway, (await gateway.createToken({ scope })).token)
          const inScope = await channelsInScope(gateway, selectors)
          for (const request of requests) {
            const everything = await sendA(gateway, request)
            expect(everything.status).toBe(200)
            const expected = restricted(request.operation, everything.answer, inScope)
            const inA = await sendA(scoped, request)
            const inB = await sendB(scoped, request.operation, translated(request))
            expect({ request, status: inA.status, answer: withinScope(request.operation, inA.answer, inScope) }).toEqual({ request, status: 200, answer: expected })
            expect({ request, status: inB.status, answer: withinScope(request.operation, inB.answer, inScope) }).toEqual({ request, status: 200, answer: expected })
          }
        } finally {
          await gateway.close()
        }
      }),
      { numRuns: 25 }
    )
  }, 120_000)

  it("never writes or tags a channel outside its scope, in either vocabulary", async () => {
    await fc.assert(
      fc.asyncProperty(randomHomeFile, scopeJson, fc.array(requestA, { minLength: 1, maxLength: 8 }), async (home, selectors, requests) => {
        const gateway = await startGateway(home)
        try {
          const scope = decoded(B.decodeScope({ channels: selectors, rights: ["read", "write", "tag"] }))
          const scoped = withToken(gateway, (await gateway.createToken({ scope })).token)
          const inScope = await channelsInScope(gateway, selectors)
          const channelTags = async () => {
            const all = [...(await gateway.call("GET", "/api/v1/channels/getters")).json as ReadonlyArray<Item & { tags: unknown }>, ...(await gateway.call("GET", "/api/v1/channels/setters")).json as ReadonlyArray<Item & { tags: unknown }>]
            return all.filter((c) => !inScope.has(c.id)).map((c) => [c.id, c.tags])
          }
          const before = await channelTags()
          // Random writes seldom hit a setter outside the scope: end with writes of every value to every setter.
          const writesEverywhere = everyValueJson.map((value) => ({ operation: "put_channel_value", body: { set: [{}], value } }))
          for (const request of [...requests, ...writesEverywhere]) {
            const inA = await sendA(scoped, request)
            const inB = await sendB(scoped, request.operation, translated(request))
            expect({ request, status: inA.status }).toEqual({ request, status: 200 })
            expect({ request, status: inB.status }).toEqual({ request, status: 200 })
            if (request.operation === "put_channel_value") {
              expect({ request, outside: writtenOutside(inA.answer, inScope) }).toEqual({ request, outside: [] })
              expect({ request, outside: writtenOutside(inB.answer, inScope) }).toEqual({ request, outside: [] })
            }
          }
          expect(await channelTags()).toEqual(before)
          // Vocabulary A passes no user, so the last writer alone cannot tell an A write: the value tells both.
          for (let i = 0; i <= 6; i++) {
            const setter = `setter:${i}@prop`
            if (!inScope.has(setter)) {
              expect({ setter, sent: await gateway.lastSent(setter), writer: await gateway.lastWriter(setter) })
                .toEqual({ setter, sent: Option.none(), writer: Option.none() })
            }
          }
        } finally {
          await gateway.close()
        }
      }),
      { numRuns: 20 }
    )
  }, 120_000)
})
