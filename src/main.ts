import { Layer } from "effect"
import { GatewayConfig, type GatewayConfigShape } from "./GatewayConfig.ts"
import { healthRoutes } from "./http/HealthRoutes.ts"
import * as Server from "./http/Server.ts"

// ─── MERGE POINT: routes ──────────────────────────────────────────────────────
// Every route the gateway answers. Vocabulary route modules export a
// `ReadonlyArray<Route<R>>`; spread them in here.
const routes = [...healthRoutes]

// ─── MERGE POINT: application layers ──────────────────────────────────────────
// The services the routes need (store, registry, dispatch, watch, …), merged into one
// layer. They may read GatewayConfig; it is provided below. Their finalizers run on shutdown.
const AppLayer = Layer.empty

/** Runs the gateway until interrupted (SIGINT/SIGTERM through the CLI), then closes every scope. */
export const serve = (config: GatewayConfigShape) =>
  Layer.launch(
    Server.layer(routes).pipe(Layer.provide(AppLayer), Layer.provide(Layer.succeed(GatewayConfig, config)))
  )
