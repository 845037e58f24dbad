import { afterEach, describe, expect, it } from "vitest"
import { connect } from "node:net"
import WebSocket from "ws"
import { pause } from "../support/eventually.ts"
import { freePort } from "../support/freePort.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { type HttpReply, send } from "../support/httpRequest.ts"
import { type RunningGateway, spawnGateway } from "../support/spawnGateway.ts"

/**
 * Requests that arrive while the gateway starts (docs/reference.md §10, 503 "the gateway is starting"):
 * from the moment the port is bound, every request and every WebSocket handshake is answered, 503 until
 * the gateway is ready and as usual after, and none holds a later stop.
 */

/** What became of one request or handshake: its status, or why it has none. */
type Outcome = number | "refused" | `no answer: ${string}` | `another 503: ${string}`

/** How long a request may go unanswered before it counts as hanging. */
const answerWithinMs = 10_000

const isRefused = (error: unknown) => error instanceof Error && "code" in error && error.code === "ECONNREFUSED"

const failed = (error: unknown): Outcome => (isRefused(error) ? "refused" : `no answer: ${String(error)}`)

/** The 503 of a start is the documented one: its message, and when to try again. */
const starting503 = (reply: HttpReply): boolean =>
  reply.body === JSON.stringify("the gateway is starting") && reply.headers["retry-after"] === "1"

const getHealth = (port: number): Promise<Outcome> =>
  send(`http://127.0.0.1:${port}/health`, { timeoutMs: answerWithinMs }).then(
    (reply): Outcome => (reply.status !== 503 || starting503(reply) ? reply.status : `another 503: ${reply.body}`),
    failed
  )

/** A watch handshake without a token: refused 401 once the gateway is ready. */
const handshake = (port: number): Promise<Outcome> =>
  new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/channels/watch`)
    const done = (outcome: Outcome) => {
      clearTimeout(timer)
      resolve(outcome)
      socket.terminate()
    }
    const timer = setTimeout(() => done("no answer: within 10 s"), answerWithinMs)
    socket.once("unexpected-response", (_request, response) => done(response.statusCode ?? 0))
    socket.once("open", () => done(101))
    socket.on("error", (error) => done(failed(error)))
  })

/** Whether something listens on `port` now. */
const bound = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })

let gateway: RunningGateway | undefined
afterEach(async () => {
  await gateway?.stop("SIGKILL", 1_000)
  gateway = undefined
})

describe("a gateway starting", () => {
  it("answers every request and handshake from the moment its port is bound, 503 until ready, and a stop right after is quick", async () => {
    const port = await freePort()
    // A first run: the admin is created between the bind and the first answer, the longest start there is,
    // its password hashed at the gateway's own cost (not the suite's test cost): a quarter of a second of 503s.
    const starting = spawnGateway(["serve", "--host", "127.0.0.1", "--port", String(port), "--no-clock", "--data", freshDataDir()], 15_000, {
      GATEWAY_TEST_PASSWORD_COST: ""
    })
    let ready = false
    let gaveUp = false
    starting.then(() => (ready = true), () => (gaveUp = true))
    while (!gaveUp && !(await bound(port))) await pause(2)

    // From the bind on, a request every 5 ms and a handshake every 50 ms, until 200 requests and 20
    // handshakes have gone and one request after the gateway said it is listening: across the rest of the start.
    const requests: Array<Promise<Outcome>> = []
    const handshakes: Array<Promise<Outcome>> = []
    let firedOnceReady = false
    while (!gaveUp && (requests.length < 200 || !firedOnceReady)) {
      firedOnceReady = ready
      requests.push(getHealth(port))
      if (requests.length % 10 === 0) handshakes.push(handshake(port))
      await pause(5)
    }
    gateway = await starting
    const answered = await Promise.all(requests)
    const handshaken = await Promise.all(handshakes)

    expect(answered.filter((outcome) => outcome !== 200 && outcome !== 503)).toEqual([])
    expect(handshaken.filter((outcome) => outcome !== 401 && outcome !== 503)).toEqual([])
    // The start was crossed: it answered 503, then, once it said it was listening, as usual.
    expect(answered).toContain(503)
    expect(answered.at(-1)).toBe(200)

    const stopping = Date.now()
    const exited = await gateway.stop("SIGTERM", 8_000)
    expect(Date.now() - stopping).toBeLessThan(5_000)
    expect(exited).toMatchObject({ code: 0, signal: null })
  }, 60_000)
})
