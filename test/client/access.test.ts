import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http"
import type { Duplex } from "node:stream"
import { Schedule } from "effect"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ClientError, createClient, everyGetter } from "../../src/client/index.ts"
import { gatewayForSuite } from "../support/gatewayOverHttp.ts"
import { nodePlatform, promptly } from "./clients.ts"

/**
 * The client reads each route's access (src/api/Access.ts): it sends its token only where the route needs
 * one, and an operation that needs one, on a client without one, fails with `NoToken` before anything is sent.
 */

const home = JSON.parse(readFileSync(new URL("../../docs/examples/home.json", import.meta.url), "utf8"))

/** A server that notes each request's path and headers, answering `/health` as the gateway does and anything else `[]`. */
const recording = async () => {
  const seen: Array<{ readonly path: string; readonly headers: IncomingHttpHeaders }> = []
  const upgrades: Array<{ readonly path: string; readonly headers: IncomingHttpHeaders }> = []
  const server: Server = createServer((request, response) => {
    seen.push({ path: request.url ?? "", headers: request.headers })
    response.setHeader("content-type", "application/json")
    response.end(request.url === "/health" ? JSON.stringify({ status: "ok" }) : "[]")
  })
  // A WebSocket's upgrade is noted and refused (the connection dropped).
  server.on("upgrade", (request: IncomingMessage, socket: Duplex) => {
    upgrades.push({ path: request.url ?? "", headers: request.headers })
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no port")
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    upgrades,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const failure = (promise: Promise<unknown>): Promise<{ readonly tag: string; readonly message: string }> =>
  promise.then(
    () => ({ tag: "none", message: "it succeeded" }),
    (error: ClientError) => ({ tag: error._tag, message: error.message })
  )

describe("the client and a route's access", () => {
  let server: Awaited<ReturnType<typeof recording>>
  beforeAll(async () => {
    server = await recording()
  })
  afterAll(() => server.close())

  it("sends its token to a route that needs one, and none to an open route", async () => {
    const client = createClient({ url: server.url, token: "gw_secret", vocabulary: "b", platform: nodePlatform })
    await client.health()
    await client.getters()
    await client.close()
    expect(server.seen.map(({ path, headers }) => [path, headers.authorization])).toEqual([
      ["/health", undefined],
      ["/api/v1/channels/getters", "Bearer gw_secret"]
    ])
  })

  it("opens the watch socket with the token in Authorization on Node, as a subprotocol on a browser's WebSocket, never in the URL", async () => {
    const registration = [{ selector: everyGetter, values: { _tag: "Always" } as const, topology: true, initialValues: false }]
    for (const platform of [nodePlatform, undefined]) {
      const client = createClient({ url: server.url, token: "gw_secret", vocabulary: "b", reconnect: Schedule.recurs(0), ...(platform === undefined ? {} : { platform }) })
      expect((await failure(client.watch(registration)[Symbol.asyncIterator]().next())).tag).toBe("Transport")
      await client.close()
    }
    expect(server.upgrades.map(({ path, headers }) => [path, headers.authorization, headers["sec-websocket-protocol"]])).toEqual([
      ["/api/v1/channels/watch?vocabulary=b", "Bearer gw_secret", "home-gateway.v1"],
      ["/api/v1/channels/watch?vocabulary=b", undefined, "home-gateway.v1, bearer.gw_secret"]
    ])
  })

  it("without a token, fails with NoToken on what needs one, before anything is sent", async () => {
    server.seen.length = 0
    const client = createClient({ url: server.url, vocabulary: "a", platform: nodePlatform, reconnect: promptly })
    expect(await failure(client.fetch([everyGetter]))).toEqual({
      tag: "NoToken",
      message: "get_channel_value needs a token, and this client was made without one"
    })
    expect((await failure(client.tokens())).tag).toBe("NoToken")
    const watched = client.watch([{ selector: everyGetter, values: { _tag: "Always" }, topology: true, initialValues: false }])
    expect((await failure(watched[Symbol.asyncIterator]().next())).tag).toBe("NoToken")
    await client.close()
    expect(server.seen).toEqual([])
  })
})

describe("a client without a token, against the gateway", () => {
  const gateway = gatewayForSuite(home)

  it("asks /health, which needs none", async () => {
    const client = createClient({ url: gateway().baseUrl, vocabulary: "b", platform: nodePlatform })
    expect(await client.health()).toEqual({ status: "ok" })
    await client.close()
  })
})
