import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, ManagedRuntime, Option } from "effect"
import { HttpServer } from "effect/http"
import { defaultGatewayConfig, type GatewayConfigShape } from "../../src/GatewayConfig.ts"
import { Watch } from "../../src/gateway/Watch.ts"
import { gatewayLayer } from "../../src/main.ts"
import { freshDataDir } from "./gatewayTestLayer.ts"
import { send } from "./httpRequest.ts"

/** A whole gateway running in this process on a real loopback socket, on the home given. */
export interface GatewayOverHttp {
  readonly baseUrl: string
  /** The home file the simulator watches: rewrite it to change the home. */
  readonly homeFile: string
  /** One request; `body` is sent as JSON (a string is sent as it is). Answers status and parsed JSON. */
  readonly call: (method: string, path: string, body?: unknown) => Promise<{ status: number; json: unknown; headers: Record<string, unknown> }>
  /** How many watches the gateway holds (each with its queue): a closed socket must release its own. */
  readonly liveWatches: () => Promise<number>
  readonly close: () => Promise<void>
}

export const startGateway = async (home: unknown, config: Partial<GatewayConfigShape> = {}): Promise<GatewayOverHttp> => {
  const dataDir = freshDataDir()
  const homeFile = join(dataDir, "home.json")
  writeFileSync(homeFile, JSON.stringify(home, null, 2))
  const runtime = ManagedRuntime.make(
    gatewayLayer({ ...defaultGatewayConfig, port: 0, clock: false, dataDir, home: Option.some(homeFile), ...config })
  )
  const address = await runtime.runPromise(HttpServer.HttpServer.useSync((server) => server.address))
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  const baseUrl = `http://127.0.0.1:${address.port}`
  return {
    baseUrl,
    homeFile,
    call: async (method, path, body) => {
      const reply = await send(`${baseUrl}${path}`, {
        method,
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
        timeoutMs: 15_000
      })
      return { status: reply.status, json: reply.body === "" ? undefined : JSON.parse(reply.body), headers: reply.headers }
    },
    liveWatches: () => runtime.runPromise(Effect.flatMap(Watch, (watch) => watch.live)),
    close: () => runtime.dispose()
  }
}
