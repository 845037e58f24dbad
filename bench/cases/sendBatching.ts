import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Context, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import { defaultGatewayConfig } from "../../src/GatewayConfig.ts"
import { gatewayLayer } from "../../src/main.ts"
import type { AnyBenchCase } from "../Harness.ts"

/** Setters of one simulated service, and the latency of one round trip to it. */
const setters = 10
const latencyMs = 20

const home = {
  services: [{
    id: "service:strip@bench",
    latency_ms: latencyMs,
    setters: Array.from({ length: setters }, (_, i) => ({ id: `setter:led-${i}@bench`, kind: "OnOff" }))
  }]
}

/** A whole gateway on loopback, on the home above, for the scope of the case. */
const gatewayOnLoopback = Effect.gen(function*() {
  const dataDir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "gateway-bench-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )
  const homeFile = join(dataDir, "home.json")
  writeFileSync(homeFile, JSON.stringify(home))
  const context = yield* Layer.build(
    gatewayLayer({ ...defaultGatewayConfig, port: 0, clock: false, dataDir, home: Option.some(homeFile) })
  )
  const address = Context.get(context, HttpServer.HttpServer).address
  return address._tag === "UnixPathAddress" ? address.path : `http://127.0.0.1:${address.port}`
})

const put = (url: string, body: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}/api/v1/channels/set`, { method: "PUT", body: JSON.stringify(body) })
    if (response.status !== 200) throw new Error(`send_values answered ${response.status}`)
    return response.json()
  })

const select = (i: number) => ({ id: `setter:led-${i}@bench` })
const on = { OnOff: "On" }

export const cases: ReadonlyArray<AnyBenchCase> = [
  {
    name: `send_values: ${setters} setters of one service (latency ${latencyMs} ms)`,
    acquire: Effect.map(gatewayOnLoopback, (url) => ({
      baseline: {
        name: `${setters} calls, one setter each`,
        run: Effect.forEach(Array.from({ length: setters }, (_, i) => i), (i) => put(url, { select: select(i), value: on }), {
          discard: true
        })
      },
      subject: {
        name: `1 call, ${setters} setters`,
        run: put(url, { select: Array.from({ length: setters }, (_, i) => select(i)), value: on })
      }
    }))
  }
]
