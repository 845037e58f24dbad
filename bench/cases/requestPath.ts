import { Effect, Option } from "effect"
import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"
import type { AnyBenchCase } from "../Harness.ts"
import { bareServer } from "../http/BareServer.ts"
import { connect, requestBytes } from "../http/InProcessClient.ts"
import { benchGateway } from "../support/BenchGateway.ts"

/**
 * The request path's own cost (issue 12), without the kernel: each request is sent to the gateway on an
 * in-process connection (bench/http/InProcessClient.ts), against a bare `node:http` server that answers
 * the same bytes on the same kind of connection. The ratio says how far the gateway's JavaScript is from
 * Node's own; the loopback table (`bench/cases/loopback.ts`) says it with the kernel's share included.
 */

/** One service, one getter, one setter, no latency: what a request costs when the device costs nothing. */
export const oneLampHome = {
  services: [{
    id: "service:lamp@bench",
    tags: ["light"],
    properties: { name: "Lamp" },
    getters: [{ id: "getter:lamp-on@bench", kind: "OnOff", value: { OnOff: "On" } }],
    setters: [{ id: "setter:lamp-on@bench", kind: "OnOff", drives: "getter:lamp-on@bench" }]
  }]
}

export interface RequestCase {
  readonly name: string
  /** The demo home, or the one-lamp home. */
  readonly home: "demo" | "one lamp"
  readonly method: "GET" | "PUT" | "POST"
  readonly path: string
  readonly body?: string
}

/** The content of the home file a request case runs on. */
export const homeOf = (c: RequestCase): typeof demoHome | typeof oneLampHome => (c.home === "demo" ? demoHome : oneLampHome)

/** The headers of a request case's request: the token, and the body's type when it has one. */
export const headersOf = (c: RequestCase, token: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  ...(c.body === undefined ? {} : { "content-type": "application/json" })
})

/** The requests of issue 12's table, in both vocabularies. */
export const requestCases: ReadonlyArray<RequestCase> = [
  { name: "GET /health", home: "one lamp", method: "GET", path: "/health" },
  { name: "fetch_values, one getter (B)", home: "one lamp", method: "PUT", path: "/api/v1/channels/get", body: `[{"id":"getter:lamp-on@bench"}]` },
  {
    name: "get_channel_value, one input (A)",
    home: "one lamp",
    method: "GET",
    path: "/api/v1/channels/value",
    body: `[{"id":{"Exactly":"getter:lamp-on@bench"}}]`
  },
  { name: "get_services, demo home (B)", home: "demo", method: "GET", path: "/api/v1/services" },
  { name: "get_nodes, demo home (A)", home: "demo", method: "GET", path: "/api/v1/nodes" },
  {
    name: "send_values, one setter (B)",
    home: "one lamp",
    method: "PUT",
    path: "/api/v1/channels/set",
    body: `{"select":{"id":"setter:lamp-on@bench"},"value":{"OnOff":"On"}}`
  },
  {
    name: "put_channel_value, one output (A)",
    home: "one lamp",
    method: "POST",
    path: "/api/v1/channels/value",
    body: `{"set":[{"id":{"Exactly":"setter:lamp-on@bench"}}],"value":{"OnOff":"On"}}`
  }
]

const inProcessCase = (c: RequestCase): AnyBenchCase => ({
  name: `in process: ${c.name}`,
  acquire: Effect.gen(function*() {
    const gateway = yield* benchGateway(Option.some(homeOf(c)))
    const request = requestBytes(c.method, c.path, { authorization: `Bearer ${gateway.token}` }, c.body)
    const subject = connect(gateway.server)
    const first = yield* Effect.promise(() => subject.send(request))
    if (first.status !== 200) return yield* Effect.die(new Error(`${c.name}: ${first.status} ${first.body}`))
    const bare = bareServer(first.body)
    const baseline = connect(bare)
    yield* Effect.addFinalizer(() => Effect.sync(() => {
      subject.close()
      baseline.close()
    }))
    return {
      baseline: { name: "node:http, same answer", run: () => baseline.send(request) },
      subject: { name: "gateway", run: () => subject.send(request) }
    }
  })
})

export const cases: ReadonlyArray<AnyBenchCase> = requestCases.map(inProcessCase)
