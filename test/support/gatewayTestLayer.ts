import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Layer } from "effect"
import { GatewayLayer } from "../../src/gateway/GatewayLayer.ts"
import { HealthConditions } from "../../src/gateway/HealthConditions.ts"
import type { TagStore } from "../../src/gateway/TagStore.ts"
import { defaultGatewayConfig, GatewayConfig, type GatewayConfigShape } from "../../src/GatewayConfig.ts"
import { Database } from "../../src/store/Database.ts"
import { SqliteTagStore } from "../../src/store/SqliteTagStore.ts"

/** A new folder under the run's temporary root (see testTempRoot.ts), gone when the run ends. */
export const freshDataDir = (): string => mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "gateway-test-"))

/** The SQLite TagStore, in the data folder of the configuration. */
export const sqliteTagStore = SqliteTagStore.pipe(Layer.provide(Database.layer))

/** The real gateway core, with the conditions `/health` reports, on the TagStore `tags`. */
export const gatewayOn = <E, R>(tags: Layer.Layer<TagStore, E, R>, config: Partial<GatewayConfigShape> = {}) =>
  GatewayLayer.pipe(
    Layer.provideMerge(tags),
    Layer.provideMerge(HealthConditions.layer),
    Layer.provideMerge(Layer.succeed(GatewayConfig, { ...defaultGatewayConfig, dataDir: freshDataDir(), ...config }))
  )

/** The real gateway core on a real SQLite file in a fresh temporary folder. */
export const gatewayTestLayer = (config: Partial<GatewayConfigShape> = {}) => gatewayOn(sqliteTagStore, config)
