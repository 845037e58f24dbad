import { NodeFileSystem, NodePath } from "@effect/platform-node"
import { Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { ClockAdapter } from "./adapters/clock/ClockAdapter.ts"
import { Simulator } from "./adapters/simulator/Simulator.ts"
import type { Dispatch } from "./gateway/Dispatch.ts"
import { GatewayLayer } from "./gateway/GatewayLayer.ts"
import type { Registry } from "./gateway/Registry.ts"
import type { Tags } from "./gateway/Tags.ts"
import type { Watch } from "./gateway/Watch.ts"
import { GatewayConfig, type GatewayConfigShape } from "./GatewayConfig.ts"
import { healthRoutes } from "./http/HealthRoutes.ts"
import type { WebSockets } from "./http/KeepAliveWebSocket.ts"
import { openApiRoutes } from "./http/openapi/OpenApiRoutes.ts"
import { channelTagRoutes } from "./http/routes/ChannelTagRoutes.ts"
import { vocabularyARoutes } from "./http/routes/VocabularyARoutes.ts"
import { vocabularyBRoutes } from "./http/routes/VocabularyBRoutes.ts"
import { watchRoutes } from "./http/routes/WatchRoutes.ts"
import type { Route } from "./http/RouteTable.ts"
import * as Server from "./http/Server.ts"

/** What the routes' handlers use. */
type RouteServices =
  | Registry
  | Tags
  | Dispatch
  | Watch
  | WebSockets
  | GatewayConfig
  | HttpServerRequest.HttpServerRequest
  | HttpServerRequest.ParsedSearchParams

/** Every route of the API, and the OpenAPI document of them all. */
const apiRoutes: ReadonlyArray<Route<RouteServices>> = [
  ...healthRoutes,
  ...vocabularyBRoutes,
  ...vocabularyARoutes,
  ...channelTagRoutes,
  ...watchRoutes
]
const routes: ReadonlyArray<Route<RouteServices>> = [...apiRoutes, ...openApiRoutes(apiRoutes)]

/** The devices: the simulated home (the demo house unless `--home`) and, unless `--no-clock`, the clock. */
const adapters = (config: GatewayConfigShape) =>
  Layer.mergeAll(Simulator.layerFromConfig, config.clock ? ClockAdapter.layer() : Layer.empty).pipe(
    Layer.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))
  )

/** The whole gateway for `config`: server, adapters and core. Closing it closes every scope, the database last. */
export const gatewayLayer = (config: GatewayConfigShape) =>
  Server.layer(routes).pipe(
    Layer.provideMerge(adapters(config)),
    Layer.provideMerge(GatewayLayer),
    Layer.provide(Layer.succeed(GatewayConfig, config))
  )

/** Runs the gateway until interrupted (SIGINT/SIGTERM through the CLI). */
export const serve = (config: GatewayConfigShape) => Layer.launch(gatewayLayer(config))
