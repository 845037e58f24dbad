import { Effect, Exit, Layer, Scope } from "effect"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveSockets, maxWatchSocketsPerToken, maxWatchSocketsPerUser } from "../../../src/auth/LiveSockets.ts"
import { defaultGatewayOptions } from "../../../src/GatewayOptions.ts"
import { layerOptions } from "../../../src/main.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { gatewayTestLayer } from "../../support/gatewayTestLayer.ts"
import { inMemoryAuthStore } from "../../support/InMemoryStores.ts"
import { send } from "../../support/httpRequest.ts"
import { home } from "../vocabularyB/homes.ts"

/** Issue 9's hardening: CORS closed unless origins are named, slow clients cut off, a cap on watch sockets. */

describe("CORS", () => {
  const allowed = "https://app.example.org"
  let gateway: GatewayOverHttp
  beforeAll(async () => {
    gateway = await startGateway(home, { corsOrigins: [allowed] })
  })
  afterAll(() => gateway.close())

  const preflight = (origin: string) =>
    send(`${gateway.baseUrl}/api/v1/services`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization" }
    })

  it("answers a preflight from a named origin 204, without a token, with what may be sent", async () => {
    const reply = await preflight(allowed)
    expect(reply.status).toBe(204)
    expect(reply.headers).toMatchObject({
      "access-control-allow-origin": allowed,
      "access-control-allow-headers": "authorization, content-type",
      vary: "Origin"
    })
    expect(reply.headers["access-control-allow-methods"]).toContain("PUT")
    expect(reply.headers["access-control-allow-credentials"]).toBeUndefined()
  })

  it("marks answers to a named origin, and still wants a token", async () => {
    const refused = await send(`${gateway.baseUrl}/api/v1/services`, { headers: { origin: allowed } })
    expect(refused.status).toBe(401)
    expect(refused.headers["access-control-allow-origin"]).toBe(allowed)
    const answered = await gateway.call("GET", "/api/v1/services", undefined, { origin: allowed })
    expect(answered.status).toBe(200)
    expect(answered.headers["access-control-allow-origin"]).toBe(allowed)
  })

  it("stays closed to any other origin: no CORS header, and OPTIONS is 405", async () => {
    const reply = await preflight("https://evil.example")
    expect(reply.status).toBe(405)
    expect(reply.headers["access-control-allow-origin"]).toBeUndefined()
    const answered = await gateway.call("GET", "/api/v1/services", undefined, { origin: "https://evil.example" })
    expect(answered.headers["access-control-allow-origin"]).toBeUndefined()
  })
})

describe("CORS by default", () => {
  it("is closed: no origin gets a CORS header", async () => {
    const gateway = await startGateway(home)
    try {
      const reply = await send(`${gateway.baseUrl}/api/v1/services`, {
        method: "OPTIONS",
        headers: { origin: "https://app.example.org", "access-control-request-method": "GET" }
      })
      expect(reply.status).toBe(405)
      expect(reply.headers["access-control-allow-origin"]).toBeUndefined()
    } finally {
      await gateway.close()
    }
  })
})

describe("a client that never finishes its headers", () => {
  // The server's own time-out, made short: the 10 s of the default would hold a worker idle.
  it("is answered 408 and disconnected by the server", async () => {
    const gateway = await startGateway(home, { headersTimeoutMs: 500 })
    try {
      const { port } = new URL(gateway.baseUrl)
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () => socket.write("GET /api/v1/services HTTP/1.1\r\nHost: x\r\n"))
        let received = ""
        socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk))
        socket.on("close", () => resolve(received))
        socket.on("error", reject)
      })
      expect(answer).toMatch(/^HTTP\/1\.1 408/)
    } finally {
      await gateway.close()
    }
  })

  it("has 10 s by default, as docs/configuration.md says, and the server is given it", () => {
    expect(defaultGatewayOptions.headersTimeoutMs).toBe(10_000)
    expect(layerOptions(defaultGatewayOptions).server.headersTimeout).toBe(10_000)
  })
})

describe("watch sockets per token and per user", () => {
  const sockets = LiveSockets.layer({ tokenRecheck: defaultGatewayOptions.tokenRecheckMs, limit: 2, userLimit: 3 }).pipe(Layer.provide(inMemoryAuthStore()), Layer.provide(gatewayTestLayer()))
  const run = <A, E>(effect: Effect.Effect<A, E, LiveSockets>) => Effect.runPromiseExit(Effect.provide(effect, sockets))

  it("are counted while held, refused past the token's cap, and released with their scope", async () => {
    const exit = await run(Effect.gen(function*() {
      const sockets = yield* LiveSockets
      const first = yield* Scope.make()
      const second = yield* Scope.make()
      yield* Scope.provide(sockets.acquire(7, "ann"), first)
      yield* Scope.provide(sockets.acquire(7, "ann"), second)
      const third = yield* Effect.exit(Effect.scoped(sockets.acquire(7, "ann")))
      const otherToken = yield* Effect.exit(Effect.scoped(sockets.acquire(8, "ann")))
      const held = yield* sockets.count(7)
      yield* Scope.close(first, Exit.void)
      const afterRelease = yield* Effect.exit(Effect.scoped(sockets.acquire(7, "ann")))
      return { third: Exit.isFailure(third), otherToken: Exit.isSuccess(otherToken), held, afterRelease: Exit.isSuccess(afterRelease) }
    }))
    expect(exit).toEqual(Exit.succeed({ third: true, otherToken: true, held: 2, afterRelease: true }))
  })

  it("refuse a user's socket past the user's cap, whichever token asks, and count a released one out", async () => {
    const exit = await run(Effect.gen(function*() {
      const sockets = yield* LiveSockets
      const held = yield* Scope.make()
      yield* Scope.provide(sockets.acquire(1, "ann"), held)
      yield* Scope.provide(sockets.acquire(2, "ann"), held)
      const last = yield* Scope.make()
      yield* Scope.provide(sockets.acquire(3, "ann"), last)
      const fourth = yield* Effect.flip(Effect.scoped(sockets.acquire(4, "ann")))
      const otherUser = yield* Effect.exit(Effect.scoped(sockets.acquire(5, "bob")))
      yield* Scope.close(last, Exit.void)
      const afterRelease = yield* Effect.exit(Effect.scoped(sockets.acquire(4, "ann")))
      return { fourth: fourth.message, otherUser: Exit.isSuccess(otherUser), afterRelease: Exit.isSuccess(afterRelease) }
    }))
    expect(exit).toEqual(Exit.succeed({
      fourth: "the tokens of this user already hold 3 watch sockets, the most one user may; close some, or revoke the tokens that hold them",
      otherUser: true,
      afterRelease: true
    }))
  })

  it("have explicit caps", () => {
    expect({ perToken: maxWatchSocketsPerToken, perUser: maxWatchSocketsPerUser }).toEqual({ perToken: 16, perUser: 64 })
  })
})
