import { afterEach, describe, expect, it } from "vitest"
import { writeFileSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { join } from "node:path"
import { pause } from "../support/eventually.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { send } from "../support/httpRequest.ts"
import { type RunningGateway, spawnGateway } from "../support/spawnGateway.ts"

/**
 * A stop (SIGTERM) while clients are connected: running requests are answered, nothing new is served,
 * and the process exits as soon as the last answer is sent (wire.md §6, 503 "shutting down").
 */

const slowHome = {
  services: [{
    id: "service:slow@sim",
    latency_ms: 1_500,
    getters: [{ id: "getter:slow@sim", kind: "OnOff", value: { OnOff: "Off" } }]
  }]
}

/** A raw connection, and when the server closed it. */
const openConnection = async (baseUrl: string) => {
  const { hostname, port } = new URL(baseUrl)
  const socket: Socket = connect(Number(port), hostname)
  await new Promise((resolve) => socket.once("connect", resolve))
  const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())))
  let received = ""
  socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk))
  return { socket, closed, received: () => received }
}

let gateway: RunningGateway | undefined
afterEach(async () => {
  await gateway?.stop("SIGKILL", 1_000)
  gateway = undefined
})

describe("a gateway told to stop", () => {
  it("answers the request running with Connection: close, drops idle and silent connections at once, and exits after the last answer", async () => {
    const dataDir = freshDataDir()
    const homeFile = join(dataDir, "home.json")
    writeFileSync(homeFile, JSON.stringify(slowHome))
    const running = await spawnGateway(["serve", "--port", "0", "--no-clock", "--data", dataDir, "--home", homeFile])
    gateway = running

    // Kept alive after one answer, as browsers and HTTP client pools keep their connections.
    const keptAlive = await openConnection(running.baseUrl)
    keptAlive.socket.write("GET /health HTTP/1.1\r\nHost: gateway\r\n\r\n")
    while (!keptAlive.received().includes("\"ok\"")) await pause(10)
    // Connected, never sent anything.
    const silent = await openConnection(running.baseUrl)
    const slowRead = send(`${running.baseUrl}/api/v1/channels/get`, {
      method: "PUT",
      headers: { authorization: `Bearer ${running.token ?? ""}` },
      body: JSON.stringify({ id: "getter:slow@sim" }),
      timeoutMs: 10_000
    }).then((reply) => ({ reply, at: Date.now() }))
    await pause(300)

    // A grace of 4 s: a gateway that waited on its idle connections (5 s keep-alive, 20 s shutdown timer) is killed.
    const exited = running.stop("SIGTERM", 4_000)
    const { reply, at: answeredAt } = await slowRead
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.body)).toEqual({ "getter:slow@sim": { OnOff: "Off" } })
    expect(reply.headers.connection).toBe("close")
    expect(await keptAlive.closed).toBeLessThan(answeredAt)
    expect(await silent.closed).toBeLessThan(answeredAt)
    expect(await exited).toMatchObject({ code: 0, signal: null })
  })
})
