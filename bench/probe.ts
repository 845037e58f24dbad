import { Effect, Option } from "effect"
import { connect, requestBytes } from "./http/InProcessClient.ts"
import { oneLampHome } from "./cases/requestPath.ts"
import { benchGateway } from "./support/BenchGateway.ts"

const program = Effect.scoped(Effect.gen(function*() {
  const gateway = yield* benchGateway(Option.some(oneLampHome))
  const client = connect(gateway.server)
  const request = requestBytes(process.argv[3] ?? "PUT", process.argv[2] ?? "/api/v1/channels/get", { authorization: `Bearer ${gateway.token}` }, process.argv[4] ?? `[{"id":"getter:lamp-on@bench"}]`)
  yield* Effect.promise(async () => {
    for (let i = 0; i < 2000; i++) await client.send(request)
    const n = 5000
    const c0 = process.cpuUsage(); const t0 = performance.now()
    for (let i = 0; i < n; i++) await client.send(request)
    const wall = (performance.now() - t0) * 1000 / n; const c = process.cpuUsage(c0)
    console.error(`wall ${wall.toFixed(1)} µs/req, cpu user ${(c.user / n).toFixed(1)} sys ${(c.system / n).toFixed(1)} µs/req`, (await client.send(request)).body.slice(0, 80))
  })
  client.close()
}))
Effect.runPromise(program).then(() => process.exit(0))
