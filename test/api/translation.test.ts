import { describe, expect, it } from "vitest"
import { channelTags } from "../../src/api/ChannelTags.ts"
import { endpointsOf } from "../../src/api/Api.ts"
import { operationNames, translations, whereInB } from "../../src/api/Translation.ts"
import { vocabularyA } from "../../src/api/VocabularyA.ts"
import { vocabularyB } from "../../src/api/VocabularyB.ts"
import { watching } from "../../src/api/Watching.ts"

/**
 * `gateway translate` and the Migration page send a translation's B request where its B endpoint is
 * served: each side of each pair is an endpoint of the API, and the B request is that endpoint's route.
 */

const endpointsA = endpointsOf({ vocabularyA, channelTags, watching })
const endpointsB = endpointsOf({ vocabularyB, channelTags, watching })

describe("the translations of vocabulary A", () => {
  it("pair an endpoint vocabulary A is served at with one of vocabulary B's groups", () => {
    for (const [name, t] of Object.entries(translations)) {
      expect({ name, a: endpointsA.includes(t.a), b: endpointsB.includes(t.b) }).toEqual({ name, a: true, b: true })
      // Vocabulary A's own group holds only A's routes: a B side there is a pair the wrong way round.
      expect({ name, bInA: endpointsOf({ vocabularyA }).includes(t.b) }).toEqual({ name, bInA: false })
    }
  })

  it("send the B request at the B endpoint's operation, method and path", () => {
    for (const [name, t] of Object.entries(translations)) {
      const where = whereInB(t.b)
      const endpoint = endpointsB.find((e) => e.operationId === where.operation)
      const path = where.path.split("?")[0]
      expect({ name, method: where.method, path }).toEqual({
        name,
        method: endpoint?.upgrade === undefined ? endpoint?.method : "WEBSOCKET",
        path: endpoint?.path
      })
    }
  })

  it("cover every operation of vocabulary A, each by its A name", () => {
    const paired = new Set(Object.values(translations).map((t) => t.a))
    expect(endpointsOf({ vocabularyA }).filter((e) => !paired.has(e)).map((e) => e.operationId)).toEqual([])
    for (const name of Object.keys(vocabularyA)) expect(operationNames[name]).toBe(name)
  })

  it("speak B on a route both vocabularies share, and name the watch a socket", () => {
    expect(whereInB(channelTags.add_channel_tags)).toEqual({
      operation: "add_channel_tags",
      method: "POST",
      path: "/api/v1/channels/tag?vocabulary=b"
    })
    expect(whereInB(watching.watch_channels)).toEqual({
      operation: "watch_channels",
      method: "WEBSOCKET",
      path: "/api/v1/channels/watch?vocabulary=b"
    })
    expect(whereInB(vocabularyB.fetch_values)).toEqual({ operation: "fetch_values", method: "GET", path: "/api/v1/channels/get" })
  })
})
