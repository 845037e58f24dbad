import * as fc from "fast-check"
import { Option } from "effect"
import { expect } from "vitest"
import * as B from "../../../src/vocabulary/b/index.ts"
import { decoded, sendA, sendB, translated } from "../../crossVocabulary/answers.ts"
import { law } from "../../laws/law.ts"
import {
  channelSelectorJson,
  everyOneChannelNodeRequest,
  everyValueJson,
  randomHomeFile,
  readRequestA,
  type RequestA,
  requestA
} from "../../crossVocabulary/randomHomeFile.ts"
import type { GatewayOverHttp } from "../../support/gatewayOverHttp.ts"
import { startGateway } from "../../support/gatewayOverHttp.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

/**
 * Scoped tokens (issue 9, item 3; issue 20, item 2) over HTTP, in both vocabularies, on random simulator
 * homes: a scoped request never sees nor touches a channel outside its scope, and a scoped read answers
 * exactly what an unscoped one answers on the home without those channels (a second gateway), errors and
 * the channel requirements of node selectors included. Answers of both vocabularies are compared in A's
 * words (see answers.ts).
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

/**
 * A scope that also selects by a tag alone, a service tag or a channel tag: the scopes a tag edit could
 * widen, if a scoped token could edit tags beyond what it reaches.
 */
const scopeByTagJson = fc
  .tuple(scopeJson, fc.constantFrom("red", "blue", "hall"), fc.constantFrom("service_tags", "tags"))
  .map(([selectors, tag, field]) => [...selectors, { [field]: [tag] }])

/**
 * A scope of selectors of one field each: it often reaches part of a service, beside channels it does
 * not reach, which a request must not be able to tell from channels that do not exist.
 */
const oneFieldScopeJson = fc.array(scopeSelectorJson.filter((selector) => Object.keys(selector).length === 1), { minLength: 1, maxLength: 2 })

/**
 * Reads, and node listings that require channels (`inputs`, `outputs`), one or two of them: the probes
 * that would tell a channel outside the scope from one that does not exist.
 */
const scopedReadRequestA: fc.Arbitrary<RequestA> = fc.oneof(
  { weight: 1, arbitrary: readRequestA },
  {
    weight: 1,
    arbitrary: fc
      .array(
        fc.oneof(
          fc.record({ inputs: fc.array(channelSelectorJson, { minLength: 1, maxLength: 2 }) }),
          fc.record({ outputs: fc.array(channelSelectorJson, { minLength: 1, maxLength: 2 }) })
        ),
        { minLength: 1, maxLength: 2 }
      )
      .map((body) => ({ operation: "get_nodes", body }))
  }
)

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

interface HomeFileChannel {
  readonly id: string
  readonly drives?: string
}
interface HomeFileService {
  readonly getters: ReadonlyArray<HomeFileChannel>
  readonly setters: ReadonlyArray<HomeFileChannel>
}

/**
 * The home file without the channels outside `inScope`, nor the services left with none: the home as a
 * scoped token must see it (docs/auth.md: absent, "exactly as if it did not exist"). A setter driving a
 * getter that is gone drives nothing: reads, all that is asked of this home, do not see it.
 */
const withoutUnreached = (home: unknown, inScope: ReadonlySet<string>): unknown => {
  const file = home as { readonly services: ReadonlyArray<HomeFileService> }
  return {
    ...file,
    services: file.services
      .map((service) => ({
        ...service,
        getters: service.getters.filter((c) => inScope.has(c.id)),
        setters: service.setters
          .filter((c) => inScope.has(c.id))
          .map(({ drives, ...setter }) => (drives === undefined || inScope.has(drives) ? { ...setter, drives } : setter))
      }))
      .filter((service) => service.getters.length + service.setters.length > 0)
  }
}

/**
 * The keys of a write's answer (in A's words) that lie outside the scope and say anything but "no such
 * thing": a scoped write may name an id it cannot reach, and must then hear of it only as absent.
 */
const writtenOutside = (answer: unknown, inScope: ReadonlySet<string>): ReadonlyArray<[string, unknown]> =>
  (answer as ReadonlyArray<[string, unknown]>).filter(([key, result]) => !inScope.has(key) && !/NoSuch/.test(JSON.stringify(result)))

const sendInEach = [
  ["A", (gateway: GatewayOverHttp, request: RequestA) => sendA(gateway, request)],
  ["B", (gateway: GatewayOverHttp, request: RequestA) => sendB(gateway, request.operation, translated(request))]
] as const

/** What the gateway holds that a tag edit may change, as the admin sees it, and what the scope reaches. */
interface Snapshot {
  readonly reach: ReadonlySet<string>
  /** Tags by channel id, as JSON. */
  readonly channelTags: ReadonlyMap<string, string>
  /** Tags and channels by service id. */
  readonly services: ReadonlyMap<string, { readonly tags: string; readonly channels: ReadonlyArray<string> }>
}

interface ServiceJson extends Item {
  readonly tags: unknown
  readonly getters: ReadonlyArray<Item & { readonly tags: unknown }>
  readonly setters: ReadonlyArray<Item & { readonly tags: unknown }>
}

const snapshot = async (gateway: GatewayOverHttp, selectors: unknown): Promise<Snapshot> => {
  const services = (await gateway.call("GET", "/api/v1/services")).json as ReadonlyArray<ServiceJson>
  const channels = services.flatMap((s) => [...s.getters, ...s.setters])
  return {
    reach: await channelsInScope(gateway, selectors),
    channelTags: new Map(channels.map((c) => [c.id, JSON.stringify(c.tags)])),
    services: new Map(services.map((s) => [s.id, { tags: JSON.stringify(s.tags), channels: [...s.getters, ...s.setters].map((c) => c.id) }]))
  }
}

/**
 * What changed tags between two snapshots though the scoped token could not edit it: a channel it did
 * not reach, or a service one of whose channels it did not reach (a service tag changes what each of
 * its channels matches).
 */
const tagsChangedOutside = (before: Snapshot, after: Snapshot): ReadonlyArray<string> => [
  ...[...after.channelTags].filter(([id, tags]) => before.channelTags.get(id) !== tags && !before.reach.has(id)).map(([id]) => id),
  ...[...after.services]
    .filter(([id, { tags, channels }]) => before.services.get(id)?.tags !== tags && !channels.every((c) => before.reach.has(c)))
    .map(([id]) => id)
]

/** The tag edits of a request, if it is one. */
const tagEdit = (request: RequestA): { readonly of: "service" | "channel"; readonly add: boolean; readonly tags: ReadonlyArray<string> } | undefined => {
  const match = /^(put|delete)_(node|input|output|channel)_tag$/.exec(request.operation)
  if (match === null) return undefined
  const { tags } = request.body as { readonly tags: ReadonlyArray<string> }
  return { of: match[2] === "node" ? "service" : "channel", add: match[1] === "put", tags }
}

/** 403 for adding a tag the scope selects by (`tags` for channels, `service_tags` for services), else 200. */
const expectedStatus = (request: RequestA, selectors: ReadonlyArray<Record<string, unknown>>): number => {
  const edit = tagEdit(request)
  if (edit === undefined || !edit.add) return 200
  const field = edit.of === "service" ? "service_tags" : "tags"
  const selectedBy = new Set(selectors.flatMap((s) => (s[field] ?? []) as ReadonlyArray<string>))
  return edit.tags.some((tag) => selectedBy.has(tag)) ? 403 : 200
}

/**
 * How many things a tag edit with the scoped token counts: the channels matching that it reaches, or
 * the services matching all of whose channels it reaches. `undefined` for other requests.
 */
const expectedCount = async (gateway: GatewayOverHttp, request: RequestA, reach: ReadonlySet<string>): Promise<number | undefined> => {
  const edit = tagEdit(request)
  if (edit === undefined) return undefined
  const { set } = request.body as { readonly set: unknown }
  if (edit.of === "service") {
    const nodes = (await sendA(gateway, { operation: "get_nodes", body: set })).answer as ReadonlyArray<Node>
    return nodes.filter((node) => {
      const channels = [...node.inputs, ...node.outputs]
      return channels.length > 0 && channels.every((c) => reach.has(c.id))
    }).length
  }
  const inputs = (await sendA(gateway, { operation: "get_input_channels", body: set })).answer as ReadonlyArray<Item>
  const outputs = (await sendA(gateway, { operation: "get_output_channels", body: set })).answer as ReadonlyArray<Item>
  return [...inputs, ...outputs].filter((c) => reach.has(c.id)).length
}

/** Adds and removals of every tag of the pools (and one no scope names), on every service and channel. */
const tagEditsEverywhere: ReadonlyArray<RequestA> = ["red", "blue", "green", "hall", "extra"].flatMap((tag) => [
  { operation: "put_node_tag", body: { set: [{}], tags: [tag] } },
  { operation: "put_input_tag", body: { set: [{}], tags: [tag] } },
  { operation: "delete_node_tag", body: { set: [{}], tags: [tag] } },
  { operation: "delete_output_tag", body: { set: [{}], tags: [tag] } }
])

// Each run starts gateways and sends them hundreds of requests: `npm run laws` runs each law 12 and 10
// times (`--runs N` for more), `npm test` the first 6 and 5 of those, and on two shared cores the default
// 30 s may not be enough for that.
law("scope over HTTP: a scoped token answers every read as an unscoped one on the home without what its scope does not reach", { of: "scopes reaching a channel", floor: 0.3 }, { laws: 12, npmTest: 6 }, (note) =>
  fc.asyncProperty(randomHomeFile, fc.oneof({ weight: 1, arbitrary: scopeJson }, { weight: 3, arbitrary: oneFieldScopeJson }), fc.array(scopedReadRequestA, { minLength: 1, maxLength: 8 }), async (home, selectors, requests) => {
    const gateway = await startGateway(home)
    let reduced: GatewayOverHttp | undefined
    try {
      const scope = decoded(decode(B.ScopeJson, { channels: selectors, rights: ["read"] }))
      const scoped = withToken(gateway, (await gateway.createToken({ scope })).token)
      const reach = await channelsInScope(gateway, selectors)
      note(reach.size > 0)
      reduced = await startGateway(withoutUnreached(home, reach))
      // Random probes seldom meet a service the scope reaches in part: end with every one-channel probe.
      for (const request of [...requests, ...everyOneChannelNodeRequest]) {
        const expected = await sendA(reduced, request)
        expect(expected.status).toBe(200)
        const inA = await sendA(scoped, request)
        const inB = await sendB(scoped, request.operation, translated(request))
        expect({ request, ...inA }).toEqual({ request, ...expected })
        expect({ request, ...inB }).toEqual({ request, ...expected })
      }
    } finally {
      await reduced?.close()
      await gateway.close()
    }
  }), 120_000)

law("scope over HTTP: a scoped token never writes or tags outside its scope, and no request makes it reach more", { of: "scopes reaching a channel", floor: 0.15 }, { laws: 10, npmTest: 5 }, (note) =>
  fc.asyncProperty(randomHomeFile, fc.oneof(scopeJson, scopeByTagJson), fc.array(requestA, { minLength: 1, maxLength: 8 }), async (home, selectors, requests) => {
    const gateway = await startGateway(home)
    try {
      const scope = decoded(decode(B.ScopeJson, { channels: selectors, rights: ["read", "write", "tag"] }))
      const scoped = withToken(gateway, (await gateway.createToken({ scope })).token)
      const initially = await snapshot(gateway, selectors)
      note(initially.reach.size > 0)
      // Random requests seldom hit what matters: end with tag edits of everything, with every tag
      // (those the scope selects by included), then writes of every value to every setter.
      const writesEverywhere = everyValueJson.map((value) => ({ operation: "put_channel_value", body: { set: [{}], value } }))
      // Only the scoped requests change the gateway: the snapshot after one is the one before the next.
      let after = initially
      for (const request of [...requests, ...tagEditsEverywhere, ...writesEverywhere]) {
        for (const [vocabulary, send] of sendInEach) {
          const before = after
          const count = await expectedCount(gateway, request, before.reach)
          const answer = await send(scoped, request)
          after = await snapshot(gateway, selectors)
          const what = { vocabulary, request }
          expect({ ...what, status: answer.status }).toEqual({ ...what, status: expectedStatus(request, selectors) })
          expect({ ...what, reachedAfter: [...after.reach].filter((id) => !before.reach.has(id)) }).toEqual({ ...what, reachedAfter: [] })
          expect({ ...what, tagsChanged: tagsChangedOutside(before, after) }).toEqual({ ...what, tagsChanged: [] })
          if (answer.status !== 200) continue
          if (request.operation === "put_channel_value") {
            expect({ ...what, outside: writtenOutside(answer.answer, before.reach) }).toEqual({ ...what, outside: [] })
          }
          if (count !== undefined) expect({ ...what, count: answer.answer }).toEqual({ ...what, count })
        }
      }
      // Vocabulary A passes no user, so the last writer alone cannot tell an A write: the value tells both.
      for (let i = 0; i <= 6; i++) {
        const setter = `setter:${i}@prop`
        if (!initially.reach.has(setter)) {
          expect({ setter, sent: await gateway.lastSent(setter), writer: await gateway.lastWriter(setter) })
            .toEqual({ setter, sent: Option.none(), writer: Option.none() })
        }
      }
    } finally {
      await gateway.close()
    }
  }), 240_000)
