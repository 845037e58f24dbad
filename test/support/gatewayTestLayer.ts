import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Layer } from "effect"
import { GatewayLayer } from "../../src/gateway/GatewayLayer.ts"
import { defaultGatewayConfig, GatewayConfig, type GatewayConfigShape } from "../../src/GatewayConfig.ts"

/** A new folder under the run's temporary root (see testTempRoot.ts), gone when the run ends. */
export const freshDataDir = (): string => mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "gateway-test-"))

/** The real gateway core on a real SQLite file in a fresh temporary folder. */
export const gatewayTestLayer = (config: Partial<GatewayConfigShape> = {}) =>
  GatewayLayer.pipe(
    Layer.provideMerge(Layer.succeed(GatewayConfig, { ...defaultGatewayConfig, dataDir: freshDataDir(), ...config }))
  )
