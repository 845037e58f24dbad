import { withoutTimes } from "../../docs/docExamples.ts"
import type { GatewayOverHttp } from "../../support/gatewayOverHttp.ts"

/** A request's status and body, timestamps read as `"<time>"` (see homes.ts `T`). */
export interface Answer {
  readonly status: number
  readonly body: unknown
}

/** `exchange(gateway)(method, path, body?)`: one request over HTTP, answered as an `Answer`. */
export const exchange = (gateway: () => GatewayOverHttp) =>
async (method: string, path: string, body?: unknown): Promise<Answer> => {
  const reply = await gateway().call(method, path, body)
  return { status: reply.status, body: withoutTimes(reply.json) }
}

/** The gateway of a `beforeAll`, or a clear failure when it did not start. */
export const started = (gateway: GatewayOverHttp | undefined): GatewayOverHttp => {
  if (gateway === undefined) throw new Error("the gateway did not start")
  return gateway
}
