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
 * and the process exits as soon as the last answer is sent (docs/reference.md §10, 503 "shutting down").
 */

const slowHome = {
  services: [{
    id: "service:slow@sim",
    latency_ms: 1_500,
    getters: [{ id: "getter:slow@sim", kind: "OnOff", value: { OnOff: "Off" } }]
  }, {
    // A setter that drives nothing: the simulator logs (on stderr) each write it applies, `<id> received <value>`.
    id: "service:lamp@sim",
    setters: [{ id: "setter:lamp@sim", kind: "OnOff" }]
  }]
}

const startSlowHome = () => {
  const dataDir = freshDataDir()
  const homeFile = join(dataDir, "home.json")
  writeFileSync(homeFile, JSON.stringify(slowHome))
  return spawnGateway(["serve", "--port", "0", "--no-clock", "--data", dataDir, "--home", homeFile])
}

/** An HTTP/1.1 request as bytes, with a JSON body. */
const rawRequest = (method: string, path: string, token: string, body: unknown) => {
  const json = JSON.stringify(body)
  return `${method} ${path} HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`
}

interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** The responses in what a connection received, in order (bodies with `Content-Length` or chunked). */
const parseResponses = (received: string): ReadonlyArray<RawResponse> => {
  const responses: Array<RawResponse> = []
  let rest = Buffer.from(received, "utf8")
  while (rest.length > 0) {
    const end = rest.indexOf("\r\n\r\n")
    if (end < 0) throw new Error(`an incomplete response: ${rest.toString("utf8")}`)
    const [statusLine = "", ...lines] = rest.subarray(0, end).toString("latin1").split("\r\n")
    const headers = Object.fromEntries(lines.map((line) => {
      const colon = line.indexOf(":")
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]
    }))
    rest = rest.subarray(end + 4)
    let body = Buffer.alloc(0)
    if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const lineEnd = rest.indexOf("\r\n")
        const size = parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16)
        body = Buffer.concat([body, rest.subarray(lineEnd + 2, lineEnd + 2 + size)])
        rest = rest.subarray(lineEnd + 2 + size + 2)
        if (size === 0) break
      }
    } else {
      const length = Number(headers["content-length"] ?? 0)
      body = rest.subarray(0, length)
      rest = rest.subarray(length)
    }
    responses.push({ status: Number(statusLine.split(" ")[1]), headers, body: body.toString("utf8") })
  }
  return responses
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
    const running = await startSlowHome()
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

  it("refuses a request pipelined behind a running one with 503 and Connection: close, and applies none of it", async () => {
    const running = await startSlowHome()
    gateway = running
    const token = running.token ?? ""
    // Before the stop a write is applied, and the simulator says so in the log.
    const before = await send(`${running.baseUrl}/api/v1/channels/set`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ select: { id: "setter:lamp@sim" }, value: { OnOff: "Off" } })
    })
    expect(before.status).toBe(200)
    while (!running.stderr().includes(`setter:lamp@sim received {"OnOff":"Off"}`)) await pause(10)

    // Idle after one answer: closed as soon as the stop begins, which tells the test it has.
    const idle = await openConnection(running.baseUrl)
    idle.socket.write("GET /health HTTP/1.1\r\nHost: gateway\r\n\r\n")
    while (!idle.received().includes("\"ok\"")) await pause(10)
    const busy = await openConnection(running.baseUrl)
    busy.socket.write(rawRequest("PUT", "/api/v1/channels/get", token, { id: "getter:slow@sim" }))
    await pause(300)

    const exited = running.stop("SIGTERM", 4_000)
    await idle.closed
    // Sent on the busy connection while the slow read still runs.
    busy.socket.write(rawRequest("PUT", "/api/v1/channels/set", token, { select: { id: "setter:lamp@sim" }, value: { OnOff: "On" } }))
    await busy.closed
    const [read, refused, ...more] = parseResponses(busy.received())
    // The read keeps the connection open for the answer queued behind it; that answer closes it.
    expect(read?.status).toBe(200)
    expect(read?.headers.connection).not.toBe("close")
    expect(JSON.parse(read?.body ?? "")).toEqual({ "getter:slow@sim": { OnOff: "Off" } })
    expect(refused).toMatchObject({ status: 503, headers: { connection: "close" } })
    expect(JSON.parse(refused?.body ?? "")).toBe("the gateway is shutting down")
    expect(more).toEqual([])
    const { code, signal, stderr } = await exited
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    expect(stderr).not.toContain(`setter:lamp@sim received {"OnOff":"On"}`)
  })
})
