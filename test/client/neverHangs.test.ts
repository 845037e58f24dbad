import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { promisify } from "node:util"
import { Effect, Fiber, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ClientError, createClient, GatewayClient, RequestTimeout, type Unavailable } from "../../src/client/index.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { nodePlatform } from "./clients.ts"
import { nodeBin } from "../support/spawnGateway.ts"
import { type SilentServer, silentServer } from "./silentServer.ts"

const run = promisify(execFile)

/**
 * A call never hangs: it times out (10 s by default, the client's `timeout`, or the call's own), the
 * Promise face gives it up when its signal is aborted, the Effect face when it is interrupted, closing
 * the connection each time; and a 429 says when to try again.
 */

/** Resolves once `holds` does, looking every few milliseconds of real time. */
const until = async (holds: () => boolean): Promise<void> => {
  while (!holds()) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** What a call settled with, and after how long. */
const settled = async (promise: Promise<unknown>) => {
  const started = performance.now()
  const error = await promise.then(() => undefined, (e: unknown) => e)
  return { error, ms: performance.now() - started }
}

let silent: SilentServer
beforeAll(async () => {
  silent = await silentServer()
})
afterAll(() => silent.close())

describe("a call to a server that accepts and never answers", () => {
  // The time-out is Effect's sleep: on the test clock, the 10 s are not waited for.
  it.effect("fails with Transport TimedOut after 10 s by default, saying a write may still have been applied", () =>
    Effect.gen(function*() {
      const client = yield* GatewayClient
      const before = silent.accepted()
      const call = yield* Effect.forkChild(Effect.flip(client.send([])))
      // The time-out starts with the request: once the server holds the connection, its sleep is on the clock.
      yield* Effect.promise(() => until(() => silent.accepted() > before))
      yield* TestClock.adjust("9999 millis")
      expect(call.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("1 millis")
      const error = yield* Fiber.join(call)
      expect(error).toMatchObject({ _tag: "Transport", reason: "TimedOut" })
      expect(error.message).toMatch(/no answer within 10 s \(a write may still have been applied\)/)
      yield* Effect.promise(() => silent.allClosed())
    }).pipe(Effect.provide(GatewayClient.layer({ url: silent.url, token: "gw_any", vocabulary: "b" }).pipe(Layer.provide(nodePlatform)))))

  it("times out after the client's timeout, or the call's own", async () => {
    const client = createClient({ url: silent.url, token: "gw_any", vocabulary: "a", platform: nodePlatform, timeoutMs: 300 })
    const byClient = await settled(client.services())
    expect(byClient.error).toMatchObject({ _tag: "Transport", reason: "TimedOut" })
    expect(byClient.ms).toBeGreaterThan(250)
    expect(byClient.ms).toBeLessThan(2_000)
    const byCall = await settled(client.services(undefined, { timeoutMs: 1_200 }))
    expect(byCall.error).toMatchObject({ _tag: "Transport", reason: "TimedOut" })
    expect(byCall.ms).toBeGreaterThan(1_100)
    await client.close()
  })

  it("is given up when its signal is aborted, rejecting with the signal's reason and closing the connection", async () => {
    const client = createClient({ url: silent.url, token: "gw_any", vocabulary: "b", platform: nodePlatform })
    const before = silent.accepted()
    const stop = new AbortController()
    setTimeout(() => stop.abort(new Error("the app gave up")), 200)
    const { error, ms } = await settled(client.getters(undefined, { signal: stop.signal }))
    expect(error).toEqual(new Error("the app gave up"))
    expect(ms).toBeLessThan(2_000)
    expect(silent.accepted()).toBe(before + 1)
    await silent.allClosed()
    await client.close()
  })

  it("is interrupted in the Effect face, closing the connection; RequestTimeout sets a call's own time-out", async () => {
    const layer = GatewayClient.layer({ url: silent.url, token: "gw_any", vocabulary: "b" }).pipe(Layer.provide(nodePlatform))
    const before = silent.accepted()
    await Effect.runPromise(Effect.gen(function*() {
      const client = yield* GatewayClient
      const fiber = yield* Effect.forkChild(client.fetch())
      yield* Effect.sleep("200 millis")
      yield* Fiber.interrupt(fiber)
      const own = yield* Effect.flip(client.health().pipe(Effect.provideService(RequestTimeout, 200)))
      expect(own).toMatchObject({ _tag: "Transport", reason: "TimedOut" })
    }).pipe(Effect.provide(layer)))
    expect(silent.accepted()).toBe(before + 2)
    await silent.allClosed()
  })
})

describe("a call that was answered", () => {
  it("leaves nothing behind that holds a Node process open (its time-out's timer included)", { timeout: 70_000 }, async () => {
    const gateway = await startGateway(JSON.parse(readFileSync(new URL("../../docs/examples/home.json", import.meta.url), "utf8")))
    const program = [
      `import { createClient } from ${JSON.stringify(new URL("../../src/client/index.ts", import.meta.url).href)}`,
      `import { nodePlatform } from ${JSON.stringify(new URL("../../src/client-node/index.ts", import.meta.url).href)}`,
      `const client = createClient({ url: ${JSON.stringify(gateway.baseUrl)}, vocabulary: "b", platform: nodePlatform })`,
      "const status = (await client.health()).status",
      "await client.close()",
      // From the answer to the exit: loading the client's sources is slow, and not what is measured.
      "const answered = performance.now()",
      "process.on('exit', () => console.log(status, Math.round(performance.now() - answered)))"
    ].join("\n")
    try {
      const { stdout } = await run(nodeBin, ["--input-type=module", "-e", program], { timeout: 60_000 })
      const [status, lingered] = stdout.trim().split(" ")
      expect(status).toBe("ok")
      expect(Number(lingered)).toBeLessThan(1_000)
    } finally {
      await gateway.close()
    }
  })
})

describe("a 429", () => {
  const home = JSON.parse(readFileSync(new URL("../../docs/examples/home.json", import.meta.url), "utf8"))
  let gateway: GatewayOverHttp
  beforeAll(async () => {
    gateway = await startGateway(home, {}, { captureLogs: true })
  })
  afterAll(() => gateway.close())

  it("is Unavailable with the status and the wait Retry-After says", async () => {
    const client = createClient({ url: gateway.baseUrl, token: gateway.token, vocabulary: "b", platform: nodePlatform })
    const creating = () => client.createToken({ label: "many", scope: Option.none(), expiresAt: Option.none() })
    for (let i = 0; i < 30; i++) await creating()
    const refused = await creating().then(() => undefined, (e: ClientError) => e)
    expect(refused).toMatchObject({ _tag: "Unavailable", status: 429 })
    const wait = (refused as Unavailable).retryAfterMs
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(60_000)
    await client.close()
  })
})
