import { copyFileSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Logger } from "effect"
import * as GatewayLayer from "../../src/gateway/GatewayLayer.ts"
import { HealthConditions } from "../../src/gateway/HealthConditions.ts"
import type { TagStore } from "../../src/gateway/TagStore.ts"
import { defaultGatewayOptions } from "../../src/GatewayOptions.ts"
import { Database } from "../../src/store/Database.ts"
import { SqliteTagStore } from "../../src/store/SqliteTagStore.ts"

/** A new folder under the run's temporary root (see testTempRoot.ts), gone when the run ends. */
export const freshDataDir = (): string => mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "gateway-test-"))

/**
 * A database migrated once per worker: migrating a new SQLite file was a third of the start of a
 * gateway over HTTP (10–18 ms of CPU of 28–44), and some files start a gateway or a core per run of
 * a property. The migrations themselves are tested on files of their own (test/store, test/cli).
 */
let migrated: string | undefined
const migratedDatabase = (): string => {
  if (migrated === undefined) {
    const dataDir = freshDataDir()
    Effect.runSync(Layer.build(Database.layer({ dataDir })).pipe(Effect.scoped, Effect.provide(Logger.layer([]))))
    migrated = join(dataDir, "gateway.db")
  }
  return migrated
}

/** A new folder under the run's temporary root holding a copy of a migrated database, as the gateway's own would be. */
export const migratedDataDir = (): string => {
  const dataDir = freshDataDir()
  copyFileSync(migratedDatabase(), join(dataDir, "gateway.db"))
  return dataDir
}

/** The SQLite TagStore on a real, migrated file in a fresh temporary folder (each build of the layer opens it anew). */
export const sqliteTagStore = (dataDir: string = migratedDataDir()) => SqliteTagStore.pipe(Layer.provide(Database.layer({ dataDir })))

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
