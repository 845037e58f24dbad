import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { HttpServer } from "effect/http"
import { formatUrlHostString } from "effect/net/NetAddress"
import type { Server as NodeServer } from "node:http"
import { ClockAdapter } from "./adapters/clock/ClockAdapter.ts"
import { mqttLayer, type MqttLayerOptions } from "./adapters/mqtt/MqttFromOptions.ts"
import * as AuthLayer from "./auth/AuthLayer.ts"
import { brokerLogin } from "./auth/BrokerLogin.ts"
import { FirstRun, type FirstRunOptions } from "./auth/FirstRun.ts"
import type { LiveSocketsOptions } from "./auth/LiveSockets.ts"
import type { TokenQuotaOptions } from "./auth/TokenQuota.ts"
import type { TokensOptions } from "./auth/Tokens.ts"
import { Simulator } from "./adapters/simulator/Simulator.ts"
import type { DispatchOptions } from "./gateway/Dispatch.ts"
import * as GatewayLayer from "./gateway/GatewayLayer.ts"
import { HealthConditions } from "./gateway/HealthConditions.ts"
import type { GatewayOptions } from "./GatewayOptions.ts"
import { memorySettledAfterStart } from "./MemoryAfterStart.ts"
import { curlExample, guardByAccess } from "./http/routing/Authentication.ts"
import { LoopbackAccess } from "./http/routing/LoopbackAccess.ts"
import { healthRoutes } from "./http/routes/HealthRoutes.ts"
import { metricsRoutes } from "./http/routes/MetricsRoutes.ts"
import { migrationGuideRoutes } from "./http/routes/MigrationGuideRoutes.ts"
import { openApiRoutes } from "./http/openapi/OpenApiRoutes.ts"
import { channelTagRoutes } from "./http/routes/ChannelTagRoutes.ts"
import { tokenRoutes } from "./http/routes/TokenRoutes.ts"
import { userRoutes } from "./http/routes/UserRoutes.ts"
import { vocabularyARoutes } from "./http/routes/VocabularyARoutes.ts"
import { vocabularyBRoutes } from "./http/routes/VocabularyBRoutes.ts"
import { watchRoutes } from "./http/routes/WatchRoutes.ts"
import type { Requirements } from "./http/routing/RouteTable.ts"
import * as Server from "./http/transport/Server.ts"
import type { VocabularyADeprecation } from "./http/observation/VocabularyADeprecation.ts"
import { vocabularyAReport } from "./http/observation/VocabularyAReport.ts"
import type { LoginFailures } from "./auth/LoginFailures.ts"
import type { TokenCreations } from "./auth/TokenCreations.ts"
import type { TokenStore } from "./auth/TokenStore.ts"
import type { UserStore } from "./auth/UserStore.ts"
import type { StoreError } from "./domain/StoreError.ts"
import type { TagStore } from "./gateway/TagStore.ts"
import type { DatabaseError, DatabaseOptions } from "./store/Database.ts"
import type { DatabaseTooNew } from "./store/Migrations.ts"
import type { DatabasePasswordFileUnusable } from "./store/PgPassword.ts"
import type { PgStoreOptions } from "./store/PgStore.ts"
import * as SqliteStore from "./store/SqliteStore.ts"

/** Every route of the API, each an endpoint of src/api with its handler. */
const served = [
  ...healthRoutes,
  ...vocabularyBRoutes,
  ...vocabularyARoutes,
  ...channelTagRoutes,
  ...watchRoutes,
  ...userRoutes,
  ...tokenRoutes,
  ...metricsRoutes,
  ...migrationGuideRoutes
]

/** What the routes' handlers use, as their types say. */
type RouteServices = Requirements<typeof served>

/** Each route guarded as its endpoint's access says (a token, a right; `/health` and setup and login open). */
export const routes = guardByAccess<RouteServices>([...served, ...openApiRoutes(served)])

/** What each layer of the gateway takes, from the options of the whole gateway. */
export interface LayerOptions {
  readonly server: Server.ServerOptions
  readonly firstRun: FirstRunOptions
  readonly simulator: { readonly home: Option.Option<string>; readonly replica: boolean }
  readonly clock: boolean
  readonly mqtt: MqttLayerOptions
  readonly auth: TokensOptions & LiveSocketsOptions & TokenQuotaOptions
  readonly core: DispatchOptions
  readonly store: DatabaseOptions & { readonly postgres: Option.Option<PgStoreOptions> }
  readonly metrics: { readonly openOnLoopback: boolean; readonly vocabularyAReportMs: number }
}

/** A is deprecated from now on, or from its sunset if that is already past (RFC 9745 wants no sunset before the deprecation). */
const deprecationOf = (options: GatewayOptions): Option.Option<VocabularyADeprecation> =>
  Option.map(options.deprecateVocabularyA, ({ sunset }) => ({
    since: Math.min(Date.now(), ...Option.toArray(Option.map(sunset, (date) => date.getTime()))),
    sunset: Option.map(sunset, (date) => date.getTime())
  }))

/** The one place where the options of the whole gateway (the command line's) are split between its layers. */
export const layerOptions = (options: GatewayOptions): LayerOptions => ({
  server: {
    host: options.host,
    port: options.port,
    maxBodyBytes: options.maxBodyBytes,
    corsOrigins: options.corsOrigins,
    trustedProxies: options.trustProxy,
    dashboard: options.dashboard,
    watchPing: options.watchPingMs,
    watchCloseGrace: options.watchCloseGraceMs,
    headersTimeout: options.headersTimeoutMs,
    deprecation: deprecationOf(options)
  },
  firstRun: { defaultAdmin: options.defaultAdmin, sessionDays: options.sessionDays },
  simulator: { home: options.home, replica: Option.isSome(options.databaseUrl) },
  clock: options.clock,
  mqtt: {
    mqtt: Option.map(options.mqtt, (url) => ({
      url,
      username: options.mqttUsername,
      password: options.mqttPassword,
      passwordFile: options.mqttPasswordFile,
      caFile: options.mqttCaFile,
      certFile: options.mqttCertFile,
      keyFile: options.mqttKeyFile
    })),
    baseTopic: options.mqttBaseTopic,
    discovery: options.mqttDiscovery,
    broker: options.mqttBroker,
    host: options.host
  },
  auth: { sessionDays: options.sessionDays, tokenRecheck: options.tokenRecheckMs, creationWindowMs: options.tokenCreationWindowMs },
  core: { deviceTimeout: options.deviceTimeoutMs },
  store: {
    dataDir: options.dataDir,
    postgres: Option.map(options.databaseUrl, (url) => ({ url, passwordFile: options.databasePasswordFile }))
  },
  metrics: { openOnLoopback: options.metricsOpenOnLoopback, vocabularyAReportMs: options.vocabularyAReportMs }
})

/**
 * The devices, side by side: the simulated home (the demo house unless `--home`), unless `--no-clock`
 * the clock, and with `--mqtt` or `--mqtt-broker` a Zigbee2MQTT bridge's devices (and with
 * `--mqtt-discovery` the devices announced by MQTT discovery).
 */
const adapters = (options: LayerOptions) =>
  Layer.mergeAll(Simulator.layer(options.simulator), options.clock ? ClockAdapter.layer() : Layer.empty, mqttLayer(options.mqtt)).pipe(
    Layer.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)),
    Layer.provide(brokerLogin)
  )

/**
 * Where users, tokens and tags are kept: the data folder's SQLite file, or with `--database-url` a
 * PostgreSQL database, whose driver is loaded only then (a chunk of its own, out of the start-up bundle).
 * The failed logins and token creations are counted with them: in memory beside SQLite (one gateway
 * counts alone), in the database beside PostgreSQL (replicas count together).
 */
const storeLayer = (
  options: LayerOptions["store"]
): Layer.Layer<TagStore | UserStore | TokenStore | LoginFailures | TokenCreations, DatabaseError | DatabaseTooNew | StoreError | DatabasePasswordFileUnusable, HealthConditions> =>
  Option.match(options.postgres, {
    onNone: () => Layer.merge(SqliteStore.layer(options), AuthLayer.countedInMemory),
    onSome: (postgres) =>
      Layer.unwrap(Effect.map(Effect.promise(() => import("./store/PgStore.ts")), (PgStore) => PgStore.layerFor(postgres))).pipe(
        Layer.provide(NodeFileSystem.layer)
      )
  })

/** On a first run, after `listening on`, a request to try with the admin token. */
const firstRunExample = (host: string) => Layer.effectDiscard(Effect.gen(function*() {
  const { adminToken } = yield* FirstRun
  if (Option.isNone(adminToken)) return
  const { address } = yield* HttpServer.HttpServer
  if (address._tag !== "UnixPathAddress") yield* Console.log(curlExample(`http://${formatUrlHostString(host)}:${address.port}`, adminToken.value))
}))

/**
 * The whole gateway for `options`: server, adapters, auth, core, and the SQLite store they keep their
 * data in, each layer built with its own options. Closing it closes every scope, the database last.
 * `makeServer` makes the Node server to answer on (benchmarks hand one in to feed it without a socket).
 */
export const gatewayLayer = (gatewayOptions: GatewayOptions, makeServer?: () => NodeServer) => {
  const options = layerOptions(gatewayOptions)
  return firstRunExample(options.server.host).pipe(
    // The first admin is created once the port is ours: a start that cannot listen spends no one-time credentials.
    Layer.provideMerge(Server.layerOnceBound(routes, FirstRun.layer(options.firstRun), options.server, makeServer)),
    Layer.provideMerge(adapters(options)),
    Layer.provideMerge(AuthLayer.layer(options.auth)),
    Layer.provideMerge(GatewayLayer.layer(options.core)),
    Layer.provideMerge(vocabularyAReport(options.server.deprecation, options.metrics.vocabularyAReportMs)),
    Layer.provideMerge(LoopbackAccess.layer(options.metrics.openOnLoopback)),
    Layer.provideMerge(storeLayer(options.store)),
    Layer.provideMerge(HealthConditions.layer),
    // The metrics of this gateway, apart from any other's in the same process (tests run several).
    Layer.provideMerge(Layer.sync(Metric.MetricRegistry, () => new Map()))
  )
}

/**
 * Runs the gateway until interrupted (SIGINT/SIGTERM through the CLI); once it listens, it gives back the
 * memory its start left V8 holding (MemoryAfterStart).
 */
export const serve = (options: GatewayOptions) => Layer.launch(memorySettledAfterStart.pipe(Layer.provideMerge(gatewayLayer(options))))
