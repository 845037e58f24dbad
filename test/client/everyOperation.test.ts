import { createServer, type IncomingMessage } from "node:http"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, endpointsOf } from "../../src/api/Api.ts"
import { routesOf } from "../../src/api/Endpoint.ts"
import { clientOf, type GatewayClientShape } from "../../src/client/GatewayClient.ts"
import { anyChannel, anyService, createClient, everyGetter, everySetter, Tag } from "../../src/client/index.ts"
import { nodePlatform } from "./clients.ts"

/**
 * Every operation of every route group is offered by the client, or named below with the reason it is
 * not; and the Promise face offers every method of the Effect face. The client's requests are heard by
 * a server that refuses them all (404), so each method is seen to reach its route.
 */

const notOffered: Readonly<Record<string, string>> = {
  add_channel_tags_alias_getters: "an alias of add_channel_tags with the mechanism in its path: tagChannels takes it in the selectors",
  remove_channel_tags_alias_getters: "an alias of remove_channel_tags with the mechanism in its path: untagChannels takes it in the selectors",
  add_channel_tags_alias_setters: "an alias of add_channel_tags with the mechanism in its path: tagChannels takes it in the selectors",
  remove_channel_tags_alias_setters: "an alias of remove_channel_tags with the mechanism in its path: untagChannels takes it in the selectors",
  health_head: "health() answers the same; HEAD is for probes that read the status alone",
  ping: "a liveness probe's route; health() says more",
  ping_head: "a liveness probe's route; health() says more",
  setup_status: "the first run's setup, done once by a person in the dashboard or the command line",
  setup: "the first run's setup, done once by a person in the dashboard or the command line",
  login: "the dashboard's session: an app holds an API token (docs/auth.md)",
  logout: "the dashboard's session: an app holds an API token (docs/auth.md)",
  create_comparison_token: "the Migration page's own token, which only a session gets: an app holds an API token (docs/auth.md)",
  get_openapi_document: "a document for tools that generate clients, not an operation on the home",
  get_migration_guide: "a page for people, linked from vocabulary A's Deprecation headers",
  get_metrics: "for Prometheus to scrape"
}

type Methods = Exclude<keyof GatewayClientShape, "vocabulary">

/**
 * Arguments every method can be called with in both vocabularies (a new method must be given some here),
 * each one written, so that the call's options come after them.
 */
const argumentsOf: { readonly [K in Methods]: Parameters<GatewayClientShape[K]> } = {
  services: [undefined],
  getters: [undefined],
  setters: [undefined],
  fetch: [undefined],
  send: [[{ selectors: [everySetter], value: { _tag: "OnOff", state: "On" } }]],
  tagServices: [[anyService], [Tag.make("t")]],
  untagServices: [[anyService], [Tag.make("t")]],
  tagChannels: [[anyChannel], [Tag.make("t")]],
  untagChannels: [[anyChannel], [Tag.make("t")]],
  tokens: [],
  createToken: [{ label: "app", scope: Option.none(), expiresAt: Option.none() }],
  revokeToken: [1],
  health: [],
  watch: [[{ selector: everyGetter, values: { _tag: "Always" }, topology: true, initialValues: false }], undefined]
}

const heard: Array<string> = []
const server = createServer((request, response) => {
  heard.push(`${request.method} ${new URL(request.url ?? "/", "http://x").pathname}`)
  response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify("nothing here"))
})
// A WebSocket's upgrade is not a request to the server: heard, then refused.
server.on("upgrade", (request: IncomingMessage, socket) => {
  heard.push(`${request.method} ${new URL(request.url ?? "/", "http://x").pathname}`)
  socket.destroy()
})
let url = ""
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no port")
  url = `http://127.0.0.1:${address.port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const methodNames = Object.keys(argumentsOf) as ReadonlyArray<Methods>

/** Calls every method of a Promise-face client; a watch is left once the server heard it. */
const callEverything = async (vocabulary: "a" | "b") => {
  const client = createClient({ url, token: "gw_any", vocabulary, platform: nodePlatform })
  for (const name of methodNames) {
    const call = client[name] as (...args: ReadonlyArray<unknown>) => Promise<unknown> | AsyncIterable<unknown>
    const stop = new AbortController()
    const answer = call(...argumentsOf[name], { signal: stop.signal })
    if (Symbol.asyncIterator in answer) {
      const watching = (async () => {
        for await (const _ of answer) break
      })()
      while (!heard.includes("GET /api/v1/channels/watch")) await new Promise((resolve) => setTimeout(resolve, 20))
      stop.abort()
      await watching
    } else {
      await answer.catch(() => undefined)
    }
  }
  await client.close()
}

describe("the client's operations", () => {
  it("reach a route of every operation of every group, save those named with the reason they are not offered", async () => {
    await callEverything("a")
    await callEverything("b")
    const offered = new Set(endpointsOf(api).flatMap((endpoint) =>
      routesOf(endpoint).some((route) => heard.includes(`${route.method} ${route.path}`)) ? [endpoint.operationId] : []
    ))
    const unaccounted = endpointsOf(api).map((e) => e.operationId).filter((id) => !offered.has(id) && notOffered[id] === undefined)
    expect(unaccounted).toEqual([])
    expect(Object.keys(notOffered).filter((id) => offered.has(id))).toEqual([])
    expect(Object.keys(notOffered).filter((id) => !endpointsOf(api).some((e) => e.operationId === id))).toEqual([])
  })

  it("are offered by the Promise face as by the Effect face, with subscribeValues and close besides", async () => {
    const effectFace = clientOf({ url: "http://127.0.0.1:1", vocabulary: "b" }, Effect.never)
    const promiseFace = createClient({ url: "http://127.0.0.1:1", vocabulary: "b" })
    expect(Object.keys(promiseFace).sort()).toEqual([...Object.keys(effectFace), "subscribeValues", "close"].sort())
    expect(Object.keys(effectFace).sort()).toEqual([...methodNames, "vocabulary"].sort())
    await promiseFace.close()
  })
})
