import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Layer } from "effect"
import * as GatewayLayer from "../../src/gateway/GatewayLayer.ts"
import { HealthConditions } from "../../src/gateway/HealthConditions.ts"
import type { TagStore } from "../../src/gateway/TagStore.ts"
import { defaultGatewayOptions } from "../../src/GatewayOptions.ts"
import { Database } from "../../src/store/Database.ts"
import { SqliteTagStore } from "../../src/store/SqliteTagStore.ts"

/** A new folder under the run's temporary root (see testTempRoot.ts), gone when the run ends. */
export const freshDataDir = (): string => mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "gateway-test-"))

/** The SQLite TagStore on a real file in a fresh temporary folder (each build of the layer opens it anew). */
export const sqliteTagStore = (dataDir: string = freshDataDir()) => SqliteTagStore.pipe(Layer.provide(Database.layer({ dataDir })))

/** What a test may change of the core. */
export interface CoreTestOptions {
  readonly deviceTimeoutMs?: number
}

/** The real gateway core, with the conditions `/health` reports, on the TagStore `tags`. */
export const gatewayOn = <E, R>(tags: Layer.Layer<TagStore, E, R>, options: CoreTestOptions = {}) =>
  GatewayLayer.layer({ deviceTimeout: options.deviceTimeoutMs ?? defaultGatewayOptions.deviceTimeoutMs }).pipe(
    Layer.provideMerge(tags),
    Layer.provideMerge(HealthConditions.layer)
  )

/** The real gateway core on a real SQLite file in a fresh temporary folder. */
export const gatewayTestLayer = (options: CoreTestOptions = {}) => gatewayOn(sqliteTagStore(), options)
