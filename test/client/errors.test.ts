import { createServer, type Server, type Socket } from "node:net"
import { readFileSync } from "node:fs"
import { Effect, Layer, Option, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  anyChannel,
  ChannelId,
  channelSelector,
  type ClientError,
  createClient,
  everyGetter,
  exactly,
  GatewayClient,
  type SendTarget,
  Tag
} from "../../src/client/index.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { clientOf, nodePlatform, promptly } from "./clients.ts"

/**
 * What a refused or failed request is, in the client's types: the gateway's statuses as Unauthorized,
 * Forbidden and BadRequest (with the gateway's message), a dropped connection as Transport, and a
 * request the vocabulary cannot say as Unexpressible, before anything is sent.
 */

const home = JSON.parse(readFileSync(new URL("../../docs/examples/home.json", import.meta.url), "utf8"))

/** How a Promise of the client failed: the error's tag and message. */
const failure = (promise: Promise<unknown>): Promise<{ readonly tag: string; readonly message: string }> =>
  promise.then(
    () => ({ tag: "none", message: "it succeeded" }),
    (error: ClientError) => ({ tag: error._tag, message: error.message })
  )

/** A server that accepts connections and drops each at once; it counts them. */
const dropping = async (): Promise<{ readonly url: string; readonly accepted: () => number; readonly close: () => Promise<void> }> => {
  let accepted = 0
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    accepted++
    socket.destroy()
  })
  server.on("connection", (socket) => sockets.add(socket))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no port")
  return {
    url: `http://127.0.0.1:${address.port}`,
    accepted: () => accepted,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(home, {}, { captureLogs: true })
})
afterAll(() => gateway.close())

describe.each(["a", "b"] as const)("the client in vocabulary %s", (vocabulary) => {
  it("fails with BadRequest and the gateway's message for a 400", async () => {
    const client = clientOf(gateway, vocabulary)
    const tooMany = Array.from({ length: 101 }, (_, i) => Tag.make(`t${i}`))
    expect(await failure(client.tagChannels([anyChannel], tooMany))).toEqual({
      tag: "BadRequest",
      message: "body.tags: 101 tags, at most 100 per request"
    })
    await client.close()
  })

  it("fails with Unauthorized for a 401, on requests and on a watch", async () => {
    const client = createClient({ url: gateway.baseUrl, token: "gw_not-a-token", vocabulary, platform: nodePlatform, reconnect: promptly })
    expect((await failure(client.services())).tag).toBe("Unauthorized")
    const watching = Stream.runCollect(Stream.fromAsyncIterable(client.watch([{ selector: everyGetter, values: { _tag: "Always" }, topology: true, initialValues: false }]), (e) => e))
    expect(await Effect.runPromise(Effect.flip(watching)).then((e) => (e as ClientError)._tag)).toBe("Unauthorized")
    await client.close()
  })

  it("fails with Forbidden for a 403", async () => {
    const { token } = await gateway.createToken({ scope: { channels: [anyChannel], rights: ["read"] } })
    const client = createClient({ url: gateway.baseUrl, token, vocabulary, platform: nodePlatform })
    expect((await failure(client.tagChannels([anyChannel], [Tag.make("hall")]))).tag).toBe("Forbidden")
    expect((await client.getters()).length).toBeGreaterThan(0)
    // A watch, too: the socket does not open, and the client learns why instead of reconnecting forever.
    const watching = Stream.runCollect(Stream.fromAsyncIterable(client.watch([{ selector: everyGetter, values: { _tag: "Always" }, topology: true, initialValues: false }]), (e) => e))
    expect(await Effect.runPromise(Effect.flip(watching)).then((e) => (e as ClientError)._tag)).toBe("Forbidden")
    await client.close()
  })

  it("fails with Transport when the connection drops", async () => {
    const server = await dropping()
    const client = createClient({ url: server.url, token: gateway.token, vocabulary, platform: nodePlatform })
    try {
      expect((await failure(client.getters())).tag).toBe("Transport")
      expect(server.accepted()).toBeGreaterThan(0)
    } finally {
      await client.close()
      await server.close()
    }
  })
})

describe("a request the chosen vocabulary cannot say", () => {
  const twoValues: ReadonlyArray<SendTarget> = [
    { selectors: [channelSelector({ id: exactly(ChannelId.make("setter:hall-light-on@sim")), mechanism: exactly("setter") })], value: { _tag: "OnOff", state: "On" } },
    { selectors: [channelSelector({ id: exactly(ChannelId.make("setter:kitchen-light-on@sim")), mechanism: exactly("setter") })], value: { _tag: "OnOff", state: "Off" } }
  ]

  it("fails with Unexpressible before anything is sent (vocabulary A writes one value per request)", async () => {
    const server = await dropping()
    const client = createClient({ url: server.url, token: gateway.token, vocabulary: "a", platform: nodePlatform })
    try {
      const refused = await failure(client.send(twoValues))
      expect(refused).toEqual({ tag: "Unexpressible", message: "a vocabulary A put_channel_value body holds one value, not 2" })
      expect(server.accepted()).toBe(0)
    } finally {
      await client.close()
      await server.close()
    }
  })

  it("is a typed error of the Effect face too, where the other vocabulary sends it", async () => {
    const sendIn = (vocabulary: "a" | "b") =>
      Effect.runPromise(
        GatewayClient.use((client) => Effect.result(client.send(twoValues))).pipe(
          Effect.provide(GatewayClient.layer({ url: gateway.baseUrl, token: gateway.token, vocabulary }).pipe(Layer.provide(nodePlatform)))
        )
      )
    const inA = await sendIn("a")
    expect(inA._tag === "Failure" ? inA.failure._tag : "sent").toBe("Unexpressible")
    const inB = await sendIn("b")
    expect(inB._tag === "Success" ? inB.success.map((r) => r.key) : inB.failure._tag).toEqual(["setter:hall-light-on@sim", "setter:kitchen-light-on@sim"])
    expect(Option.isSome(await gateway.lastSent("setter:kitchen-light-on@sim"))).toBe(true)
  })
})
