import { NodeFileSystem, NodePath } from "@effect/platform-node"
import { Console, Effect, Layer, Option } from "effect"
import { HttpServer, type HttpServerRequest } from "effect/http"
import { formatUrlHostString } from "effect/net/NetAddress"
import type { Server as NodeServer } from "node:http"
import { ClockAdapter } from "./adapters/clock/ClockAdapter.ts"
import { mqttLayerFromConfig } from "./adapters/mqtt/MqttFromConfig.ts"
import { AuthLayer } from "./auth/AuthLayer.ts"
import { brokerLogin } from "./auth/BrokerLogin.ts"
import { requireToken } from "./auth/Authentication.ts"
import type { CurrentCaller } from "./auth/CurrentCaller.ts"
import { curlExample, FirstRun } from "./auth/FirstRun.ts"
import type { LiveSockets } from "./auth/LiveSockets.ts"
import type { LoginThrottle } from "./auth/LoginThrottle.ts"
import type { Tokens } from "./auth/Tokens.ts"
import type { Users } from "./auth/Users.ts"
import { Simulator } from "./adapters/simulator/Simulator.ts"
import type { Dispatch } from "./gateway/Dispatch.ts"
import { GatewayLayer } from "./gateway/GatewayLayer.ts"
import { HealthConditions } from "./gateway/HealthConditions.ts"
import type { HomeFileStatus } from "./gateway/HomeFileStatus.ts"
import type { Registry } from "./gateway/Registry.ts"
import type { Tags } from "./gateway/Tags.ts"
import type { Watch } from "./gateway/Watch.ts"
import { GatewayConfig, type GatewayConfigShape } from "./GatewayConfig.ts"
import { healthRoutes } from "./http/HealthRoutes.ts"
import type { WebSockets } from "./http/KeepAliveWebSocket.ts"
import { openApiRoutes } from "./http/openapi/OpenApiRoutes.ts"
import { channelTagRoutes } from "./http/routes/ChannelTagRoutes.ts"
import { userRoutes } from "./http/routes/UserRoutes.ts"
import { vocabularyARoutes } from "./http/routes/VocabularyARoutes.ts"
import { vocabularyBRoutes } from "./http/routes/VocabularyBRoutes.ts"
import { watchRoutes } from "./http/routes/WatchRoutes.ts"
import type { Route } from "./http/RouteTable.ts"
import * as Server from "./http/Server.ts"
import { SqliteStore } from "./store/SqliteStore.ts"

/** What the routes' handlers use. */
type RouteServices =
  | Registry
  | HomeFileStatus
  | HealthConditions
  | Tags
  | Dispatch
  | Watch
  | WebSockets
  | GatewayConfig
  | HttpServerRequest.HttpServerRequest
  | HttpServerRequest.ParsedSearchParams
  | CurrentCaller
  | LiveSockets
  | Users
  | Tokens
  | LoginThrottle

/** Every route of the API, and the OpenAPI document of them all. */
const apiRoutes: ReadonlyArray<Route<RouteServices>> = [
  ...healthRoutes,
  ...vocabularyBRoutes,
  ...vocabularyARoutes,
  ...channelTagRoutes,
  ...watchRoutes
]
/** Every `/api/v1` route needs a token (`requireToken` wraps them whatever they are); `/health` and `/users/*` do not. */
export const routes = requireToken<RouteServices>([...apiRoutes, ...userRoutes, ...openApiRoutes([...apiRoutes, ...userRoutes])])

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
 * The whole gateway for `config`: server, adapters, auth, core, and the SQLite store they keep their data
 * in. Closing it closes every scope, the database last. `makeServer` makes the Node server to answer on (benchmarks hand one in to feed it without a socket).
 */
export const gatewayLayer = (config: GatewayConfigShape, makeServer?: () => NodeServer) =>
  firstRunExample.pipe(
    // The first admin is created once the port is ours: a start that cannot listen spends no one-time credentials.
    Layer.provideMerge(Server.layerOnceBound(routes, FirstRun.layer, makeServer)),
    Layer.provideMerge(adapters(config)),
    Layer.provideMerge(AuthLayer),
    Layer.provideMerge(GatewayLayer),
    Layer.provideMerge(SqliteStore),
    Layer.provideMerge(HealthConditions.layer),
    Layer.provide(Layer.succeed(GatewayConfig, config))
  )

/** Runs the gateway until interrupted (SIGINT/SIGTERM through the CLI). */
export const serve = (config: GatewayConfigShape) => Layer.launch(gatewayLayer(config))
