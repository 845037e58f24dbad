import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Logger, Option } from "effect"
import { MqttDiscoveryAdapter, type MqttDiscoverySettings } from "../../../src/adapters/mqtt/MqttDiscoveryAdapter.ts"
import { HealthConditions } from "../../../src/gateway/HealthConditions.ts"
import { eventually } from "../../support/eventually.ts"
import { gatewayTestLayer } from "../../support/gatewayTestLayer.ts"
import { startMosquitto } from "../../support/mosquitto.ts"

/**
 * What an MQTT connection tells `/health` (docs/adapters/mqtt.md#when-the-broker-goes-away): the
 * reasons of HealthConditions are `/health`'s. Here the MQTT discovery connection, on a mosquitto of
 * its own that the test restarts, with a steadiness of 2 s (10 s by default) to keep it short.
 */

const lastingMs = 2_000

const settingsFor = (url: string): MqttDiscoverySettings => ({
  url,
  prefix: `ha-${process.pid}`,
  baseTopic: "zigbee2mqtt",
  username: Option.none(),
  password: Option.none(),
  ca: Option.none(),
  cert: Option.none(),
  key: Option.none(),
  steadiness: { connections: 3, lastingMs }
})

describe("the MQTT discovery connection in /health", () => {
  it.live("is degraded while its last three connections each ended within the time given, until one lasts that long", () =>
    Effect.gen(function*() {
      const mosquitto = yield* Effect.acquireRelease(Effect.promise(() => startMosquitto()), (m) => Effect.promise(() => m.stop()))
      const context = yield* Layer.build(
        MqttDiscoveryAdapter.layer(settingsFor(mosquitto.url)).pipe(Layer.provideMerge(gatewayTestLayer()), Layer.provideMerge(Logger.layer([])))
      )
      const failing = Effect.suspend(Context.get(context, HealthConditions).failing)
      const reasons = Effect.map(failing, (conditions) => conditions.map((condition) => condition.reason))
      const notUp = `the MQTT discovery connection to the MQTT broker at ${mosquitto.url} is not up`
      const unsteady = `the MQTT discovery connection to the MQTT broker at ${mosquitto.url} is unsteady: each of its last 3 connections ended within 2 s`
      yield* eventually(reasons, (said) => said.length === 0)
      // Three connections, each dropped at once: the broker restarts under it.
      for (let restart = 1; restart <= 3; restart++) {
        yield* Effect.promise(() => mosquitto.stop())
        const away = yield* eventually(reasons, (said) => said.length > 0)
        expect(away).toEqual([expect.stringMatching(new RegExp(`^${notUp}: `))])
        // A broker down is down for every replica: it degrades the gateway, and keeps it in a load balancer's rotation.
        expect((yield* failing).map((condition) => condition.impact)).toEqual(["degrades"])
        yield* Effect.promise(() => mosquitto.start())
        const back = yield* eventually(reasons, (said) => !said.some((reason) => reason.startsWith(notUp)))
        // Connected again; the third short one makes it unsteady.
        expect(back).toEqual(restart < 3 ? [] : [unsteady])
      }
      const startedAt = Date.now()
      const steady = yield* eventually(reasons, (said) => said.length === 0)
      expect(steady).toEqual([])
      // Until the connection had lasted the time given.
      expect(Date.now() - startedAt).toBeGreaterThan(lastingMs / 2)
    }).pipe(Effect.scoped), 30_000)
})
