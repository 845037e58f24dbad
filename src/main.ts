import { NodeFileSystem, NodePath } from "@effect/platform-node"
import { Console, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import { formatUrlHostString } from "effect/net/NetAddress"
import type { Server as NodeServer } from "node:http"
import { ClockAdapter } from "./adapters/clock/ClockAdapter.ts"
import { mqttLayerFromConfig } from "./adapters/mqtt/MqttFromConfig.ts"
import { AuthLayer } from "./auth/AuthLayer.ts"
import { brokerLogin } from "./auth/BrokerLogin.ts"
import { requireToken } from "./auth/Authentication.ts"
import { curlExample, FirstRun } from "./auth/FirstRun.ts"
import { Simulator } from "./adapters/simulator/Simulator.ts"
import { GatewayLayer } from "./gateway/GatewayLayer.ts"
import { GatewayConfig, type GatewayConfigShape } from "./GatewayConfig.ts"
import { healthRoutes } from "./http/HealthRoutes.ts"
import { openApiRoutes } from "./http/openapi/OpenApiRoutes.ts"
import { channelTagRoutes } from "./http/routes/ChannelTagRoutes.ts"
import { userRoutes } from "./http/routes/UserRoutes.ts"
import { vocabularyARoutes } from "./http/routes/VocabularyARoutes.ts"
import { vocabularyBRoutes } from "./http/routes/VocabularyBRoutes.ts"
import { watchRoutes } from "./http/routes/WatchRoutes.ts"
import type { Requirements } from "./http/RouteTable.ts"
import * as Server from "./http/Server.ts"

/** Every route of the API, each an endpoint of src/api with its handler. */
const served = [
  ...healthRoutes,
  ...vocabularyBRoutes,
  ...vocabularyARoutes,
  ...channelTagRoutes,
  ...watchRoutes,
  ...userRoutes
]

/** What the routes' handlers use, as their types say. */
type RouteServices = Requirements<typeof served>

/** Every `/api/v1` route needs a token (`requireToken` wraps them whatever they are); `/health` and `/users/*` do not. */
export const routes = requireToken<RouteServices>([...served, ...openApiRoutes(served)])

/**
 * The devices, side by side: the simulated home (the demo house unless `--home`), unless `--no-clock`
 * the clock, and with `--mqtt` or `--mqtt-broker` a Zigbee2MQTT bridge's devices.
 */
const adapters = (config: GatewayConfigShape) =>
  Layer.mergeAll(Simulator.layerFromConfig, config.clock ? ClockAdapter.layer() : Layer.empty, mqttLayerFromConfig).pipe(
    Layer.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)),
    Layer.provide(brokerLogin)
  )

/** On a first run, after `listening on`, a request to try with the admin token. */
const firstRunExample = Layer.effectDiscard(Effect.gen(function*() {
  const { adminToken } = yield* FirstRun
  if (Option.isNone(adminToken)) return
  const { address } = yield* HttpServer.HttpServer
  const { host } = yield* GatewayConfig
  if (address._tag !== "UnixPathAddress") yield* Console.log(curlExample(`http://${formatUrlHostString(host)}:${address.port}`, adminToken.value))
}))

/**
 * The whole gateway for `config`: server, adapters and core. Closing it closes every scope, the database
 * last. `makeServer` makes the Node server to answer on (benchmarks hand one in to feed it without a socket).
 */
export const gatewayLayer = (config: GatewayConfigShape, makeServer?: () => NodeServer) =>
  firstRunExample.pipe(
    // The first admin is created once the port is ours: a start that cannot listen spends no one-time credentials.
    Layer.provideMerge(Server.layerOnceBound(routes, FirstRun.layer, makeServer)),
    Layer.provideMerge(adapters(config)),
    Layer.provideMerge(AuthLayer),
    Layer.provideMerge(GatewayLayer),
    Layer.provide(Layer.succeed(GatewayConfig, config))
  )

/** Runs the gateway until interrupted (SIGINT/SIGTERM through the CLI). */
export const serve = (config: GatewayConfigShape) => Layer.launch(gatewayLayer(config))
