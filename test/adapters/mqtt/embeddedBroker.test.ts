import { createConnection } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, Option } from "effect"
import { MqttClient } from "mqtt"
import { BrokerCredentials } from "../../../src/auth/BrokerCredentials.ts"
import { EmbeddedBroker } from "../../../src/adapters/mqtt/EmbeddedBroker.ts"
import { followEmbeddedBroker } from "../../../src/adapters/mqtt/MqttFromOptions.ts"
import { maxFailuresPerUserAndAddress } from "../../../src/auth/LoginThrottle.ts"
import { anyService, ChannelId, channelSelector, exactly } from "../../../src/domain/index.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import { decoded } from "../../crossVocabulary/answers.ts"
import { Dispatch } from "../../../src/gateway/Dispatch.ts"
import { Registry } from "../../../src/gateway/Registry.ts"
import { eventually } from "../../support/eventually.ts"
import { onFreePort } from "../../support/freePort.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { gatewayTestLayer } from "../../support/gatewayTestLayer.ts"
import { startFakeBridge } from "../../support/zigbee2mqttBridge.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

/** The gateway's users, as the broker sees them: one user, alice. */
const aliceOnly = Layer.succeed(BrokerCredentials, {
  check: (username, password) => Effect.succeed(username === "alice" && password === "correct horse")
})

const quiet = Logger.layer([])
const broker = EmbeddedBroker.layer("127.0.0.1", 0).pipe(Layer.provide(aliceOnly), Layer.provideMerge(quiet))

/**
 * How a connection attempt to the broker on loopback `port` ends: "connected", or the CONNACK refusal
 * code. It comes from `from`, a loopback address (127.0.0.2 and on stand for other clients).
 */
const attempt = (port: number, login: { readonly username?: string; readonly password?: string }, from = "127.0.0.1") =>
  Effect.callback<"connected" | number | string>((resume) => {
    const client = new MqttClient(() => createConnection({ host: "127.0.0.1", port, localAddress: from }), {
      ...login,
      reconnectPeriod: 0,
      connectTimeout: 5_000
    })
    client.once("connect", () => client.end(() => resume(Effect.succeed("connected"))))
    client.once("error", (error) => client.end(true, () => resume(Effect.succeed("code" in error ? error.code : error.message))))
  })

describe("the embedded MQTT broker", () => {
  it.live("refuses a wrong password, an unknown user and a client with no credentials, and admits a user", () =>
    Effect.gen(function*() {
      const { url, port } = yield* EmbeddedBroker
      expect(url).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/)
      // 4: "bad user name or password".
      expect(yield* attempt(port, { username: "alice", password: "wrong" })).toBe(4)
      expect(yield* attempt(port, { username: "mallory", password: "correct horse" })).toBe(4)
      expect(yield* attempt(port, {})).toBe(4)
      expect(yield* attempt(port, { username: "alice", password: "correct horse" })).toBe("connected")
    }).pipe(Effect.provide(broker)))

  it.live("logs each refused login at WARN with the user name and the client's address, never the password", () => {
    const logged: Array<{ readonly level: string; readonly message: string }> = []
    const capture = Logger.layer([Logger.make(({ logLevel, message }) => void logged.push({ level: logLevel, message: String(message) }))])
    return Effect.gen(function*() {
      const { port } = yield* EmbeddedBroker
      expect(yield* attempt(port, { username: "alice", password: "stale password" }, "127.0.0.2")).toBe(4)
      expect(yield* attempt(port, { username: "mallory", password: "guess" }, "127.0.0.3")).toBe(4)
      expect(yield* attempt(port, { username: "alice", password: "correct horse" }, "127.0.0.2")).toBe("connected")
      const refusals = logged.filter((line) => line.message.includes("refused"))
      expect(refusals).toEqual([
        { level: "Warn", message: expect.stringMatching(/"alice".*127\.0\.0\.2/) },
        { level: "Warn", message: expect.stringMatching(/"mallory".*127\.0\.0\.3/) }
      ])
      expect(logged.filter((line) => /stale password|guess|correct horse/.test(line.message))).toEqual([])
    }).pipe(Effect.provide(EmbeddedBroker.layer("127.0.0.1", 0).pipe(Layer.provide(aliceOnly), Layer.provideMerge(capture))))
  })

  it.live("lets a bridge logged in as a user bring its devices, which the gateway reads and writes through it", () =>
    Effect.gen(function*() {
      const { url } = yield* EmbeddedBroker
      const bridge = yield* Effect.acquireRelease(
        Effect.promise(() => startFakeBridge(url, { username: "alice", password: "correct horse" })),
        (b) => Effect.promise(() => b.close())
      )
      const registry = yield* Registry
      // The bridge's six devices and the bridge itself.
      const services = yield* eventually(registry.services([anyService]), (s) => s.length === 7)
      expect(services).toHaveLength(7)
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
const login = (port: number, username: string, password: string, from?: string) =>
  Effect.runPromise(attempt(port, { username, password }, from))

describe("the embedded MQTT broker of a gateway, for its users", () => {
  let gateway: GatewayOverHttp
  let port = 0
  beforeAll(async () => {
    gateway = await onFreePort((free) => (port = free, startGateway({}, { home: Option.none(), mqttBroker: Option.some(free) })))
  })
  afterAll(() => gateway.close())

  /** An HTTP login as admin with its password, from `from`: the status. */
  const loginOverHttp = async (from: string) =>
    (await send(`${gateway.baseUrl}/users/login`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`admin:${gateway.adminPassword}`).toString("base64")}` },
      localAddress: from,
      timeoutMs: 15_000
    })).status

  it("admits an unscoped token, API or session, and refuses a scoped one (CONNACK 4)", async () => {
    expect(await login(port, "admin", gateway.token)).toBe("connected")
    const session = await gateway.call("POST", "/users/login", undefined, {
      authorization: `Basic ${Buffer.from(`admin:${gateway.adminPassword}`).toString("base64")}`
    })
    expect(session.status).toBe(201)
    expect(await login(port, "admin", (session.json as { session_token: string }).session_token)).toBe("connected")
    const scope = decoded(decode(B.ScopeJson, { channels: [{ service: "service:hall-light@sim" }], rights: ["read", "write", "watch", "tag"] }))
    const scoped = await gateway.createToken({ scope })
    expect(await login(port, "admin", scoped.token)).toBe(4)
  })

  it(`locks a user out of one address after ${maxFailuresPerUserAndAddress} bad logins from there, on the broker and over HTTP alike, and nowhere else`, async () => {
    const { token } = await gateway.createToken()
    // A bridge at 127.0.0.2 retrying a stale password.
    for (let i = 0; i <= maxFailuresPerUserAndAddress; i++) {
      expect({ i, answer: await login(port, "admin", "stale password", "127.0.0.2") }).toEqual({ i, answer: 4 })
    }
    expect(await login(port, "admin", gateway.adminPassword, "127.0.0.2")).toBe(4)
    expect(await login(port, "admin", token, "127.0.0.2")).toBe(4)
    expect(await loginOverHttp("127.0.0.2")).toBe(429)
    // The admin elsewhere.
    expect(await loginOverHttp("127.0.0.3")).toBe(201)
    expect(await login(port, "admin", token, "127.0.0.3")).toBe("connected")
    expect(await login(port, "admin", gateway.adminPassword, "127.0.0.4")).toBe("connected")
  })
})
