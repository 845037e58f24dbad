import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, Option } from "effect"
import { connectAsync } from "mqtt"
import { BrokerCredentials } from "../../../src/auth/BrokerCredentials.ts"
import { EmbeddedBroker } from "../../../src/adapters/mqtt/EmbeddedBroker.ts"
import { followEmbeddedBroker } from "../../../src/adapters/mqtt/MqttFromConfig.ts"
import { maxFailuresPerUser } from "../../../src/auth/LoginThrottle.ts"
import { anyService, ChannelId, channelSelector, exactly } from "../../../src/domain/index.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import { decoded } from "../../crossVocabulary/answers.ts"
import { Dispatch } from "../../../src/gateway/Dispatch.ts"
import { Registry } from "../../../src/gateway/Registry.ts"
import { eventually } from "../../support/eventually.ts"
import { onFreePort } from "../../support/freePort.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { gatewayTestLayer } from "../../support/gatewayTestLayer.ts"
import { startFakeBridge } from "../../support/zigbee2mqttBridge.ts"

/** The gateway's users, as the broker sees them: one user, alice. */
const aliceOnly = Layer.succeed(BrokerCredentials, {
  check: (username, password) => Effect.succeed(username === "alice" && password === "correct horse")
})

const quiet = Logger.layer([])
const broker = EmbeddedBroker.layer("127.0.0.1", 0).pipe(Layer.provide(aliceOnly), Layer.provideMerge(quiet))

/** How a connection attempt ends: "connected", or the CONNACK refusal code. */
const attempt = (url: string, login: { readonly username?: string; readonly password?: string }) =>
  Effect.promise(() =>
    connectAsync(url, { ...login, reconnectPeriod: 0, connectTimeout: 5_000 }).then(
      async (client) => (await client.endAsync(), "connected" as const),
      (error: unknown) => (typeof error === "object" && error !== null && "code" in error ? error.code : String(error))
    )
  )

describe("the embedded MQTT broker", () => {
  it.live("refuses a wrong password, an unknown user and a client with no credentials, and admits a user", () =>
    Effect.gen(function*() {
      const { url } = yield* EmbeddedBroker
      expect(url).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/)
      // 4: "bad user name or password".
      expect(yield* attempt(url, { username: "alice", password: "wrong" })).toBe(4)
      expect(yield* attempt(url, { username: "mallory", password: "correct horse" })).toBe(4)
      expect(yield* attempt(url, {})).toBe(4)
      expect(yield* attempt(url, { username: "alice", password: "correct horse" })).toBe("connected")
    }).pipe(Effect.provide(broker)))

  it.live("lets a bridge logged in as a user bring its devices, which the gateway reads and writes through it", () =>
    Effect.gen(function*() {
      const { url } = yield* EmbeddedBroker
      const bridge = yield* Effect.acquireRelease(
        Effect.promise(() => startFakeBridge(url, { username: "alice", password: "correct horse" })),
        (b) => Effect.promise(() => b.close())
      )
      const registry = yield* Registry
      const services = yield* eventually(registry.services([anyService]), (s) => s.length === 4)
      expect(services).toHaveLength(4)
      const dispatch = yield* Dispatch
      const [sent] = yield* dispatch.send(
        [{ selectors: [channelSelector({ id: exactly(ChannelId.make("setter:0x0017880100000001.state@zigbee2mqtt")) })], value: { _tag: "OnOff", state: "On" } }],
        { user: Option.none() }
      )
      expect(sent?.result._tag).toBe("Success")
      yield* eventually(Effect.sync(() => bridge.received.length), (n) => n > 0)
      expect(bridge.received).toEqual([{ topic: "zigbee2mqtt/living_room_light/set", payload: { state: "ON" } }])
    }).pipe(
      Effect.scoped,
      Effect.provide(
        followEmbeddedBroker("zigbee2mqtt").pipe(Layer.provideMerge(broker), Layer.provideMerge(gatewayTestLayer()), Layer.provideMerge(quiet))
      )
    ))
})

/** How a connection attempt ends, as a promise (see `attempt`). */
const login = (url: string, username: string, password: string) => Effect.runPromise(attempt(url, { username, password }))

describe("the embedded MQTT broker of a gateway, for its users", () => {
  let gateway: GatewayOverHttp
  let url = ""
  beforeAll(async () => {
    gateway = await onFreePort((port) => (url = `mqtt://127.0.0.1:${port}`, startGateway({}, { home: Option.none(), mqttBroker: Option.some(port) })))
  })
  afterAll(() => gateway.close())

  it("admits an unscoped token, API or session, and refuses a scoped one (CONNACK 4)", async () => {
    expect(await login(url, "admin", gateway.token)).toBe("connected")
    const session = await gateway.call("POST", "/users/login", undefined, {
      authorization: `Basic ${Buffer.from(`admin:${gateway.adminPassword}`).toString("base64")}`
    })
    expect(session.status).toBe(201)
    expect(await login(url, "admin", (session.json as { session_token: string }).session_token)).toBe("connected")
    const scope = decoded(B.decodeScope({ channels: [{ service: "service:hall-light@sim" }], rights: ["read", "write", "watch", "tag"] }))
    const scoped = await gateway.createToken({ scope })
    expect(await login(url, "admin", scoped.token)).toBe(4)
  })

  it(`locks a user out after ${maxFailuresPerUser} bad logins, on the broker and over HTTP alike, the right password included`, async () => {
    const { token } = await gateway.createToken()
    // A login that succeeds clears the user's count: the failures below are all there are.
    expect(await login(url, "admin", token)).toBe("connected")
    for (let i = 0; i < maxFailuresPerUser; i++) expect({ i, answer: await login(url, "admin", "not the password") }).toEqual({ i, answer: 4 })
    expect(await login(url, "admin", gateway.adminPassword)).toBe(4)
    expect(await login(url, "admin", token)).toBe(4)
    const overHttp = await gateway.call("POST", "/users/login", undefined, {
      authorization: `Basic ${Buffer.from(`admin:${gateway.adminPassword}`).toString("base64")}`
    })
    expect(overHttp.status).toBe(429)
  })
})
