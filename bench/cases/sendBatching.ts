import { Effect, Option } from "effect"
import type { AnyBenchCase } from "../Harness.ts"
import { benchGateway } from "../support/BenchGateway.ts"

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

/** A refused write fails the case (as a typed error): a benchmark of 401s would prove nothing. */
const put = (url: string, token: string, body: unknown) =>
  Effect.tryPromise(async () => {
    const response = await fetch(`${url}/api/v1/channels/set`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify(body)
    })
    if (response.status !== 200) throw new Error(`send_values answered ${response.status}: ${await response.text()}`)
    return response.json()
  })

const select = (i: number) => ({ id: `setter:led-${i}@bench` })
const on = { OnOff: "On" }

export const cases: ReadonlyArray<AnyBenchCase> = [
  {
    name: `send_values: ${setters} setters of one service (latency ${latencyMs} ms)`,
    acquire: Effect.map(benchGateway(Option.some(home)), ({ url, token }) => ({
      baseline: {
        name: `${setters} calls, one setter each`,
        run: Effect.forEach(Array.from({ length: setters }, (_, i) => i), (i) => put(url, token, { select: select(i), value: on }), {
          discard: true
        })
      },
      subject: {
        name: `1 call, ${setters} setters`,
        run: put(url, token, { select: Array.from({ length: setters }, (_, i) => select(i)), value: on })
      }
    }))
  }
]
