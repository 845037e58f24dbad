import { createServer, type Server, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CreateClientOptions, createClient, everyGetter, type Transport } from "../../src/client/index.ts"
import { freePort } from "../support/freePort.ts"
import { nodePlatform } from "./clients.ts"

/**
 * A request that gets no answer says why, in its `reason` and its message, and keeps the platform's
 * error as its `cause`: on Node's HTTP client and on `fetch` alike.
 */

/** How a call failed, as a Transport error. */
const transport = (promise: Promise<unknown>): Promise<Transport> =>
  promise.then(() => Promise.reject(new Error("it succeeded")), (error: Transport) => error)

/** A server that answers any connection in plain text, as a TLS client does not expect. */
let plain: Server
let plainPort = 0
const accepted = new Set<Socket>()
beforeAll(async () => {
  plain = createServer((socket) => {
    accepted.add(socket)
    socket.on("error", () => undefined)
    socket.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
  })
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve))
  const address = plain.address()
  if (address === null || typeof address === "string") throw new Error("no port")
  plainPort = address.port
})
afterAll(() => {
  for (const socket of accepted) socket.destroy()
  return new Promise<void>((resolve) => plain.close(() => resolve()))
})

const platforms: ReadonlyArray<readonly [string, Pick<CreateClientOptions, "platform">]> = [["Node's HTTP client", { platform: nodePlatform }], ["fetch", {}]]

describe.each(platforms)("a request on %s", (_, platform) => {
  const failing = async (url: string) => {
    const client = createClient({ url, token: "gw_any", vocabulary: "b", timeoutMs: 5_000, ...platform })
    try {
      return await transport(client.getters())
    } finally {
      await client.close()
    }
  }

  it("that nothing listens for is Refused, with the platform's error as its cause", async () => {
    const error = await failing(`http://127.0.0.1:${await freePort()}`)
    expect(error).toMatchObject({ _tag: "Transport", reason: "Refused" })
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/channels\/getters: the connection was refused/)
    expect(error.cause).toBeDefined()
  })

  it("to a host whose name is unknown is NameNotFound", async () => {
    const error = await failing("http://gateway.invalid:3000")
    expect(error).toMatchObject({ _tag: "Transport", reason: "NameNotFound" })
    expect(error.message).toMatch(/the host's name was not found \(.*gateway\.invalid/)
  })

  it("over TLS to a server that does not speak it is Tls", async () => {
    const error = await failing(`https://127.0.0.1:${plainPort}`)
    expect(error).toMatchObject({ _tag: "Transport", reason: "Tls" })
    expect(error.message).toMatch(/TLS failed/)
  })
})

describe("vocabulary A's read with selectors on fetch", () => {
  it("is GetBody, and the message says how to send it", async () => {
    const client = createClient({ url: `http://127.0.0.1:${plainPort}`, token: "gw_any", vocabulary: "a" })
    const error = await transport(client.getters([everyGetter]))
    expect(error).toMatchObject({ _tag: "Transport", reason: "GetBody" })
    expect(error.message).toContain("give the client `platform: nodePlatform` (home-gateway/client/node)")
    expect(error.cause).toBeDefined()
    await client.close()
  })
})
